/**
 * Metrics for monitoring: Micrometer meters of transitions, the MySQL follower, the cancel sweeper and
 * queue and reconciliation, served in Prometheus text format over loopback HTTP, and the alert
 * thresholds that raise an in-app notification once per incident. The only room that knows Micrometer.
 */
package com.orderconsole.service.metrics;
