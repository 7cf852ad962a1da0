/** Embedded Redis and MariaDB on loopback, for the default local mode and the tests. */
package com.orderconsole.embedded;
