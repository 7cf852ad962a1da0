/** The metrics page: result codes counted by the transition script, moves per minute, and the switch of the Prometheus endpoint. */
package com.orderconsole.ui.metrics;
