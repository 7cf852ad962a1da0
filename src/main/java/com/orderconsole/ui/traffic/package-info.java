/** The live-traffic panel beside the state graph: the traffic simulator's settings, start and stop, and its counters (demo environments only). */
package com.orderconsole.ui.traffic;
