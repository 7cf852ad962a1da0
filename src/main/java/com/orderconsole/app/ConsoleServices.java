package com.orderconsole.app;

import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.service.deadletter.DeadLetters;
import com.orderconsole.service.follower.MySqlSync;
import com.orderconsole.service.importer.OlistImporter;
import com.orderconsole.service.metrics.AlertCheck;
import com.orderconsole.service.metrics.MetricsService;
import com.orderconsole.service.monitor.HealthCheck;
import com.orderconsole.service.monitor.Monitor;
import com.orderconsole.service.order.Orders;
import com.orderconsole.service.queue.CancelQueue;
import com.orderconsole.service.recon.Reconciliation;
import com.orderconsole.service.rules.Rules;
import com.orderconsole.service.rules.StuckThresholds;
import com.orderconsole.service.rules.WhatIf;
import com.orderconsole.service.traffic.TrafficSimulator;
import com.orderconsole.service.transition.Transitions;

import java.time.Duration;
import java.util.Optional;

/**
 * The console's and the CLI's whole view of the service layer: one interface per capability. {@link Services} gives the
 * in-process services (local mode, straight on Redis and MySQL); the remote services give the same capabilities through
 * serve's HTTP API. A feature that exists only in-process (the metrics endpoint, the traffic simulator, the Olist import)
 * is an {@link Optional}, empty when absent, and the page that shows it says why.
 */
public interface ConsoleServices {
    /** @return orders: create, look up, story, pages of the order table */
    Orders orders();

    /** @return moves of single orders, forced moves and admin overrides */
    Transitions transitions();

    /** @return the transition rules: read, validate, replace, stuck thresholds */
    Rules rules();

    /** @return the what-if of a rules change (read-only) */
    WhatIf rulesWhatIf();

    /** @return the stuck threshold per status, from the rules in force */
    StuckThresholds stuckThresholds();

    /** @return counts for the state graph, the Monitor page and {@code stats} */
    Monitor monitor();

    /** @return both stores' health for the status bar */
    HealthCheck health();

    /** @return reconciliation of Redis with MySQL: compare, dry run, repair, CSV */
    Reconciliation reconciliation();

    /** @return the cancel queue, its guarded actions and the sweepers' pause */
    CancelQueue queue();

    /** @return bulk moves: preview, apply, batch records */
    Bulk bulk();

    /** @return the audit view: every recorded action across orders */
    Audit audit();

    /** @return the dead-letter list */
    DeadLetters deadLetters();

    /** @return the alert notices */
    AlertCheck alerts();

    /** @return the follower's backlog and the wait for MySQL to hold what was changed */
    MySqlSync mysqlSync();

    /** @return the default payment deadline of new orders */
    Duration paymentTimeout();

    /**
     * @return the Prometheus endpoint of this process (start, stop, port); empty remotely, where serve publishes its own
     *     metrics
     */
    Optional<MetricsService> metricsEndpoint();

    /** @return the live-traffic simulator of this process; empty remotely (it would drive serve's stores from here) */
    Optional<TrafficSimulator> trafficSimulator();

    /** @return the Olist CSV importer of this process; empty remotely (an import is a local set-up step) */
    Optional<OlistImporter> olistImporter();
}
