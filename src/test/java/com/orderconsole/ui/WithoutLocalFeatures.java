package com.orderconsole.ui;

import com.orderconsole.app.ConsoleServices;
import com.orderconsole.app.Services;
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
 * The real in-process services with the local-only features withheld, as a console working through serve has them:
 * every capability answers from the real stores, the metrics endpoint, the simulator and the importer are absent.
 */
public record WithoutLocalFeatures(Services s) implements ConsoleServices {
    @Override
    public Orders orders() {
        return s.orders();
    }

    @Override
    public Transitions transitions() {
        return s.transitions();
    }

    @Override
    public Rules rules() {
        return s.rules();
    }

    @Override
    public WhatIf rulesWhatIf() {
        return s.rulesWhatIf();
    }

    @Override
    public StuckThresholds stuckThresholds() {
        return s.stuckThresholds();
    }

    @Override
    public Monitor monitor() {
        return s.monitor();
    }

    @Override
    public HealthCheck health() {
        return s.health();
    }

    @Override
    public Reconciliation reconciliation() {
        return s.reconciliation();
    }

    @Override
    public CancelQueue queue() {
        return s.queue();
    }

    @Override
    public Bulk bulk() {
        return s.bulk();
    }

    @Override
    public Audit audit() {
        return s.audit();
    }

    @Override
    public DeadLetters deadLetters() {
        return s.deadLetters();
    }

    @Override
    public AlertCheck alerts() {
        return s.alerts();
    }

    @Override
    public MySqlSync mysqlSync() {
        return s.mysqlSync();
    }

    @Override
    public Duration paymentTimeout() {
        return s.paymentTimeout();
    }

    @Override
    public Optional<MetricsService> metricsEndpoint() {
        return Optional.empty();
    }

    @Override
    public Optional<TrafficSimulator> trafficSimulator() {
        return Optional.empty();
    }

    @Override
    public Optional<OlistImporter> olistImporter() {
        return Optional.empty();
    }
}
