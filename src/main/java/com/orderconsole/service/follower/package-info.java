/** The MySQL follower: applies each bucket's Redis outbox to MySQL, exactly once, trimming only after commit. */
package com.orderconsole.service.follower;
