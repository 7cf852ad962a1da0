/**
 * The switch of the Prometheus endpoint ({@code service/metrics}: the same {@code /metrics} as {@code serve}), shown as
 * a bar on top of the Monitor page. "Metrics" names only what Prometheus scrapes; the page's charts are {@code ui/monitor}.
 */
package com.orderconsole.ui.metrics;
