/** The cancel queue (delay queue): its monitor and operator actions, and the cancel sweeper. */
package com.orderconsole.service.queue;
