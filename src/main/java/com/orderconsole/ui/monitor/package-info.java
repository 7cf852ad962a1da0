/**
 * The Monitor page: result codes counted by the transition script and moves per minute, read from
 * {@code service/monitor}; the Prometheus endpoint switch on top of it is {@code ui/metrics}.
 */
package com.orderconsole.ui.monitor;
