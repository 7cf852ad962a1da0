/** Monitoring: live and stuck counts for the state graph, counters and per-minute history, health warnings. */
package com.orderconsole.service.monitor;
