package com.orderconsole.api;

import com.orderconsole.app.Services;
import com.orderconsole.service.feed.ChangeFeed;
import com.orderconsole.service.feed.FeedWatcher;

import java.util.ArrayList;
import java.util.List;

/**
 * Every operation of the API, by capability: each route class lists its own routes, and a new capability is one line
 * here. The route classes call the same service methods the console and the CLI call, as the authenticated operator, so
 * the service layer's role checks are the API's too. Closing it ends what the routes run in the background.
 */
final class ApiRoutes implements AutoCloseable {
    private final RouteTable table;
    private final ReconRuns reconRuns = new ReconRuns();
    private final BulkRuns bulkRuns = new BulkRuns();
    private final BulkRoutes bulk;

    /**
     * @param services the service layer of a running engine
     * @param settings the API's timeouts and environment
     * @param mysql the bounded pool for work that waits on MySQL
     * @param feed the change feed and the watcher that wakes its long polls
     */
    ApiRoutes(Services services, ApiServer.Settings settings, MysqlWork mysql, ChangeFeed feed, FeedWatcher watcher) {
        ApiGuard guard = new ApiGuard(settings.environment());
        List<Route> all = new ArrayList<>();
        all.addAll(new OrderRoutes(services, settings.transitionTimeout(), mysql, guard).routes());
        all.addAll(new OrderListRoutes(services.orders(), mysql).routes());
        StatsRoutes stats = new StatsRoutes(services.monitor(), mysql);
        all.addAll(stats.routes());
        all.addAll(new AuditRoutes(services.audit(), mysql).routes());
        all.addAll(new QueueRoutes(services, mysql, guard).routes());
        all.addAll(new ReconRoutes(services.reconciliation(), reconRuns, mysql, guard, stats::forget).routes());
        bulk = new BulkRoutes(services.bulk(), bulkRuns, guard);
        all.addAll(bulk.routes());
        all.addAll(new BulkBatchRoutes(services.bulk(), mysql).routes());
        all.addAll(new DeadLetterRoutes(services.deadLetters(), mysql, guard).routes());
        all.addAll(new RulesRoutes(services.rules(), services.rulesWhatIf(), mysql, guard, stats::forget).routes());
        all.addAll(new FeedRoute(feed, watcher, mysql).routes());
        all.addAll(new HealthRoutes(services, mysql).routes());
        all.addAll(new MeRoutes().routes());
        this.table = new RouteTable(all);
    }

    RouteTable table() {
        return table;
    }

    @Override
    public void close() {
        reconRuns.close();
        bulkRuns.close();
        bulk.close();
    }
}
