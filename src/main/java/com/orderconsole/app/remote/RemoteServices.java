package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.service.deadletter.DeadLetters;
import com.orderconsole.service.follower.MySqlSync;
import com.orderconsole.service.importer.OlistImporter;
import com.orderconsole.service.metrics.AlertCheck;
import com.orderconsole.service.metrics.Alerts;
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

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The console's and the CLI's services through serve's HTTP API (remote mode): every capability calls serve with the
 * signed-in person's access token, and nothing here opens a connection to Redis or MySQL or loads a store client. serve
 * acts as the person the token names and checks their role; the operator arguments of the ports are not sent. The
 * features that exist only in-process (the metrics endpoint, the traffic simulator, the Olist import) are empty.
 */
public final class RemoteServices implements ConsoleServices {
    /** The payment deadline a new order gets unless told otherwise: serve's default. */
    public static final Duration DEFAULT_PAYMENT_TIMEOUT = Duration.ofMinutes(30);

    private final ServeClient serve;
    private final Orders orders;
    private final Transitions transitions;
    private final Rules rules;
    private final WhatIf whatIf;
    private final StuckThresholds stuck;
    private final Monitor monitor;
    private final HealthCheck health;
    private final AlertCheck alerts;
    private final MySqlSync sync;
    private final CancelQueue queue;
    private final Reconciliation reconciliation;
    private final Bulk bulk;
    private final Audit audit;
    private final DeadLetters deadLetters;

    /**
     * @param server serve's base address, e.g. https://serve.example
     * @param tokens the signed-in person's access tokens
     */
    public RemoteServices(URI server, AccessTokens tokens) {
        this(new ServeClient(server, tokens));
    }

    /** @param serve the client every capability calls serve with */
    public RemoteServices(ServeClient serve) {
        this.serve = serve;
        this.orders = new RemoteOrders(serve);
        this.transitions = new RemoteTransitions(serve);
        this.rules = new RemoteRules(serve);
        this.whatIf = new RemoteWhatIf(serve);
        this.stuck = new StuckThresholds(rules::current);
        this.monitor = new RemoteMonitor(serve);
        this.health = new RemoteHealthCheck(serve);
        this.alerts = new RemoteAlertCheck(serve, Alerts.Thresholds.fromSystemProperties());
        this.sync = new RemoteMySqlSync(serve);
        this.queue = new RemoteCancelQueue(serve);
        this.reconciliation = new RemoteReconciliation(serve);
        this.bulk = new RemoteBulk(serve);
        this.audit = new RemoteAudit(serve);
        this.deadLetters = new RemoteDeadLetters(serve);
    }

    /** @return the HTTP client every capability uses (the status bar listens to its status) */
    public ServeClient serve() {
        return serve;
    }

    /**
     * Who the access token acts as ({@code GET /v1/me}), for the band.
     *
     * @return the operator as serve stamps it in the history (e.g. "sso:alice via console-web"), with the role serve gives
     * @throws ServeUnavailableException, SignInRequiredException when serve cannot say
     */
    public Operator whoAmI() {
        JsonNode me = serve.get("/v1/me");
        return new Operator(CoreRecords.need(me, "actor").asText(), Role.parse(CoreRecords.need(me, "role").asText()));
    }

    @Override
    public Orders orders() {
        return orders;
    }

    @Override
    public Transitions transitions() {
        return transitions;
    }

    @Override
    public Rules rules() {
        return rules;
    }

    @Override
    public WhatIf rulesWhatIf() {
        return whatIf;
    }

    @Override
    public StuckThresholds stuckThresholds() {
        return stuck;
    }

    @Override
    public Monitor monitor() {
        return monitor;
    }

    @Override
    public HealthCheck health() {
        return health;
    }

    @Override
    public Reconciliation reconciliation() {
        return reconciliation;
    }

    @Override
    public CancelQueue queue() {
        return queue;
    }

    @Override
    public Bulk bulk() {
        return bulk;
    }

    @Override
    public Audit audit() {
        return audit;
    }

    @Override
    public DeadLetters deadLetters() {
        return deadLetters;
    }

    @Override
    public AlertCheck alerts() {
        return alerts;
    }

    @Override
    public MySqlSync mysqlSync() {
        return sync;
    }

    @Override
    public Duration paymentTimeout() {
        return DEFAULT_PAYMENT_TIMEOUT;
    }

    /** @return empty: serve publishes its own metrics */
    @Override
    public Optional<MetricsService> metricsEndpoint() {
        return Optional.empty();
    }

    /** @return empty: the simulator would drive serve's stores from this process */
    @Override
    public Optional<TrafficSimulator> trafficSimulator() {
        return Optional.empty();
    }

    /** @return empty: an import is a local set-up step */
    @Override
    public Optional<OlistImporter> olistImporter() {
        return Optional.empty();
    }
}
