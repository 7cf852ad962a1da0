package com.orderconsole.soak;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.RepairResult;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The end of a soak: lets the engines catch up, runs one reconciliation with repair through the service
 * layer, then checks the invariants of issue 11 with plain SQL and Redis reads (no product code in the
 * judging, except the second reconciliation run, which is one more witness). Every violation is an
 * {@link Anomaly} naming the order.
 */
final class SoakChecks {
    /** The invariants, in the order they are reported. */
    enum Check {
        ACKED_ONCE("1. acknowledged transitions in order_history exactly once"),
        CONTIGUOUS("2. applied versions per order contiguous 1..n"),
        AGREE("3. Redis and MySQL agree after one reconciliation"),
        NO_CANCEL_AFTER_PAID("4. no applied CANCELLED after an applied PAID"),
        DEAD_LETTERS("5. dead-letter list = the corrupted records"),
        LIVENESS("L. engines caught up, overdue orders cancelled");

        final String label;

        Check(String label) {
            this.label = label;
        }
    }

    /**
     * One violation.
     *
     * @param check which invariant
     * @param orderId the order, or "-" when it is not about one order
     * @param detail what was wrong, in words
     */
    record Anomaly(Check check, String orderId, String detail) {
        @Override
        public String toString() {
            return check.label.substring(0, 2) + " order " + orderId + ": " + detail;
        }
    }

    private record HistoryRow(String orderId, long version, int to) {
    }

    private record OrderRow(String orderId, int status, long version, Long expireAtMs) {
    }

    private record RedisState(String status, String version, Double queueScore) {
    }

    private static final Operator OPS = new Operator("soak-ops", Role.OPS);
    private static final String WAIT_PAY = Integer.toString(OrderStatus.WAIT_PAY.code());

    private final String jdbcUrl;
    private final String redisUri;
    private final boolean cluster;
    private final long t0;
    private final long lossWindowMs;
    private final List<Anomaly> anomalies = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    /** What the product's second comparison still finds (merged into invariant 3 after the plain compare). */
    private final List<Anomaly> secondRun = new ArrayList<>();
    private final List<SoakClients.Ack> lostNoAof = new ArrayList<>();
    private final List<SoakClients.Ack> lostAofWindow = new ArrayList<>();

    /**
     * @param jdbcUrl MySQL, direct (no proxy)
     * @param redisUri Redis, direct (no proxy): the server, or any node of the cluster
     * @param cluster whether Redis is a cluster (reads then go to each key's master, SCAN to every master)
     * @param t0 start of the soak, epoch ms (times in details are "t+seconds" from it)
     * @param lossWindowMs see {@link SoakSettings#lossWindowMs()}
     */
    SoakChecks(String jdbcUrl, String redisUri, boolean cluster, long t0, long lossWindowMs) {
        this.jdbcUrl = jdbcUrl;
        this.redisUri = redisUri;
        this.cluster = cluster;
        this.t0 = t0;
        this.lossWindowMs = lossWindowMs;
    }

    // ---------------------------------------------------------------- catch-up (liveness)

    /**
     * Waits until the clients are idle, the MySQL follower has nothing pending and no unpaid order is
     * overdue; what is still wrong at the deadline is a liveness anomaly. The engine processes run meanwhile.
     *
     * @param checker a service layer of its own (no background jobs); its follower helps draining
     * @param corrupted ids of corrupted records (their queue entries are expected to stay)
     * @param deadlineMs epoch ms
     */
    void catchUp(Services checker, SoakClients clients, Set<String> corrupted, long deadlineMs) {
        long start = System.currentTimeMillis();
        if (!clients.awaitIdle(Math.max(0, deadlineMs - System.currentTimeMillis()))) {
            notes.add("client plans still running at the catch-up deadline (their steps were retried and gave up)");
        }
        boolean caughtUp = false;
        Map<String, String> overdue = Map.of();
        do {
            long left = deadlineMs - System.currentTimeMillis();
            try {
                caughtUp = checker.follower().awaitCaughtUp(Duration.ofMillis(Math.max(100, Math.min(2000, left))));
            } catch (RuntimeException e) {
                caughtUp = false;
            }
            overdue = overdueUnpaid(corrupted);
            if (caughtUp && overdue.isEmpty()) {
                break;
            }
            Soak.sleep(200);
        } while (System.currentTimeMillis() < deadlineMs);
        notes.add("catch-up took " + Soak.secs(System.currentTimeMillis() - start) + (caughtUp && overdue.isEmpty() ? "" : " (gave up)"));
        if (!caughtUp) {
            String why;
            try {
                FollowerStatus st = checker.follower().status();
                why = st.pending() + (st.pendingCapped() ? "+" : "") + " outbox entries pending"
                        + (st.lastError() == null ? "" : ", last error: " + st.lastError());
            } catch (RuntimeException e) {
                why = "follower status fails: " + e.getMessage();
            }
            anomalies.add(new Anomaly(Check.LIVENESS, "-", "the MySQL follower did not catch up within "
                    + Soak.secs(deadlineMs - start) + ": " + why + "; outbox lengths per bucket " + outboxLengths()));
        }
        overdue.forEach((id, what) -> anomalies.add(new Anomaly(Check.LIVENESS, id, what)));
    }

    /** Orders Redis still has in WAIT_PAY more than 5 s after their deadline, id to description. */
    private Map<String, String> overdueUnpaid(Set<String> corrupted) {
        long cutoff = System.currentTimeMillis() - 5000;
        Map<String, Long> due = new TreeMap<>();
        try {
            // MySQL's deadline (a queue entry may be missing) and the queue's (MySQL may lag).
            for (OrderRow r : orders().values()) {
                if (r.status() == OrderStatus.WAIT_PAY.code() && r.expireAtMs() != null && r.expireAtMs() < cutoff) {
                    due.put(r.orderId(), r.expireAtMs());
                }
            }
            try (SoakRedisLink conn = redis()) {
                RedisClusterCommands<String, String> r = conn.sync();
                for (int b = 0; b < RedisKeys.buckets(); b++) {
                    for (ScoredValue<String> v : r.zrangebyscoreWithScores(RedisKeys.cancelQueue(b), Range.create(0, (double) cutoff))) {
                        due.merge(v.getValue(), (long) v.getScore(), Math::min);
                    }
                }
                due.keySet().removeAll(corrupted);
                Map<String, RedisState> states = redisStates(conn.async(), new ArrayList<>(due.keySet()));
                Map<String, String> out = new TreeMap<>();
                long now = System.currentTimeMillis();
                due.forEach((id, deadline) -> {
                    RedisState st = states.get(id);
                    if (st == null || st.status() == null || WAIT_PAY.equals(st.status())) {
                        out.put(id, "still WAIT_PAY " + Soak.secs(now - deadline) + " after its deadline (bucket "
                                + RedisKeys.bucket(id) + (st != null && st.queueScore() != null ? ", queued" : ", not queued")
                                + (st == null || st.status() == null ? ", no Redis state" : "") + ")");
                    }
                });
                return out;
            }
        } catch (RuntimeException e) {
            return Map.of("-", "cannot check overdue orders: " + e.getMessage());
        }
    }

    private String outboxLengths() {
        try (SoakRedisLink conn = redis()) {
            List<Long> l = new ArrayList<>();
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                l.add(conn.sync().xlen(RedisKeys.outbox(b)));
            }
            return l.toString();
        } catch (RuntimeException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    // ---------------------------------------------------------------- reconciliation

    /**
     * Runs one reconciliation and repairs every category it found (pending sync first), then a second
     * comparison: it may find nothing but the corrupted records.
     */
    void reconcile(Services s, Set<String> corrupted) {
        ReconReport first;
        try {
            first = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        } catch (RuntimeException e) {
            anomalies.add(new Anomaly(Check.AGREE, "-", "reconciliation cannot run: " + e));
            return;
        }
        notes.add("reconciliation found " + nonZero(first));
        List<ReconCategory> order = new ArrayList<>(List.of(ReconCategory.SYNC_PENDING));
        for (ReconCategory c : ReconCategory.values()) {
            if (c != ReconCategory.SYNC_PENDING) {
                order.add(c);
            }
        }
        for (ReconCategory c : order) {
            if (first.counts().get(c) == 0) {
                continue;
            }
            try {
                RepairResult r = s.reconciliation().repair(OPS, first, c, ReconProgress.NONE, () -> false);
                notes.add("repair " + c + ": " + r.repaired() + " of " + r.attempted() + " repaired"
                        + (r.failed() > 0 ? ", " + r.failed() + " failed, e.g. " + r.errors().stream().limit(3).toList() : ""));
            } catch (RuntimeException e) {
                notes.add("repair " + c + " failed: " + e);
            }
        }
        try {
            ReconReport second = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            notes.add("second reconciliation found " + nonZero(second));
            for (ReconCategory c : ReconCategory.values()) {
                for (ReconFinding f : second.findings(c)) {
                    if (!corrupted.contains(f.orderId())) {
                        secondRun.add(new Anomaly(Check.AGREE, f.orderId().isEmpty() ? "-" : f.orderId(),
                                "the second reconciliation still finds " + c + ": " + f.detail()));
                    }
                }
            }
        } catch (RuntimeException e) {
            anomalies.add(new Anomaly(Check.AGREE, "-", "the second reconciliation cannot run: " + e));
        }
    }

    private static String nonZero(ReconReport r) {
        Map<ReconCategory, Long> m = new LinkedHashMap<>();
        r.counts().forEach((k, v) -> {
            if (v > 0) {
                m.put(k, v);
            }
        });
        return m.isEmpty() ? "nothing" : m.toString();
    }

    // ---------------------------------------------------------------- invariants

    /**
     * Checks invariants 1-5 with plain reads.
     *
     * @param acks every acknowledged applied outcome
     * @param losses the data-set losses (restart without AOF; a cluster master restarted empty), in order
     * @param aofLost acknowledgements whose write Redis no longer had after a SIGKILL with AOF everysec
     * @param corruptions the corrupted records
     */
    void verify(List<SoakClients.Ack> acks, List<FaultInjector.DataLoss> losses, List<SoakClients.Ack> aofLost,
                List<FaultInjector.Corruption> corruptions) {
        Set<String> corrupted = corruptions.stream().map(FaultInjector.Corruption::orderId).collect(Collectors.toSet());
        List<HistoryRow> history = history();
        Map<String, OrderRow> orders = orders();
        ackedOnce(acks, history, losses, new HashSet<>(aofLost));
        contiguous(history, orders);
        agree(orders, corrupted);
        noCancelAfterPaid(acks, history, orders);
        deadLetters(corruptions);
    }

    private void ackedOnce(List<SoakClients.Ack> acks, List<HistoryRow> history, List<FaultInjector.DataLoss> losses,
                           Set<SoakClients.Ack> aofLost) {
        Map<String, Integer> recorded = new HashMap<>();
        for (HistoryRow h : history) {
            recorded.merge(h.orderId() + "|" + h.version() + "|" + h.to(), 1, Integer::sum);
        }
        Map<String, List<SoakClients.Ack>> byKey = new LinkedHashMap<>();
        for (SoakClients.Ack a : acks) {
            byKey.computeIfAbsent(a.orderId() + "|" + a.version() + "|" + a.target().code(), k -> new ArrayList<>()).add(a);
        }
        byKey.forEach((key, list) -> {
            SoakClients.Ack a = list.get(0);
            int n = recorded.getOrDefault(key, 0);
            String what = "v" + a.version() + " " + a.target() + " acknowledged at " + at(a.atMs());
            if (n == 1) {
                return;
            }
            if (n > 1) {
                anomalies.add(new Anomaly(Check.ACKED_ONCE, a.orderId(), what + " is in order_history " + n + " times"));
                return;
            }
            // The first loss after the acknowledgement that took this order's keys with it.
            FaultInjector.DataLoss loss = losses.stream()
                    .filter(l -> l.hit(a.orderId()) && list.stream().allMatch(x -> x.segment() <= l.lostSegment()))
                    .findFirst().orElse(null);
            if (loss != null) {
                long age = loss.atMs() - list.stream().mapToLong(SoakClients.Ack::atMs).min().orElseThrow();
                if (age <= lossWindowMs) {
                    lostNoAof.add(a);
                } else {
                    anomalies.add(new Anomaly(Check.ACKED_ONCE, a.orderId(), what + " was lost with the Redis data set at "
                            + at(loss.atMs()) + ", " + Soak.secs(age) + " after it was acknowledged: the MySQL follower was that far behind"));
                }
                return;
            }
            // AOF everysec: Redis did not have it right after the restart (at most ~1-2 s before the kill).
            if (list.stream().allMatch(aofLost::contains)) {
                lostAofWindow.add(a);
                return;
            }
            anomalies.add(new Anomaly(Check.ACKED_ONCE, a.orderId(), what + " is not in order_history"));
        });
    }

    private void contiguous(List<HistoryRow> history, Map<String, OrderRow> orders) {
        Map<String, List<HistoryRow>> byOrder = new LinkedHashMap<>();
        for (HistoryRow h : history) {
            byOrder.computeIfAbsent(h.orderId(), k -> new ArrayList<>()).add(h);
        }
        byOrder.forEach((id, rows) -> {
            boolean ok = true;
            for (int i = 0; i < rows.size(); i++) {
                ok &= rows.get(i).version() == i + 1;
            }
            if (!ok) {
                anomalies.add(new Anomaly(Check.CONTIGUOUS, id, "applied history is " + rows.stream()
                        .map(h -> "v" + h.version() + " " + name(Integer.toString(h.to()))).limit(12).toList()));
            }
            OrderRow row = orders.get(id);
            if (row == null) {
                anomalies.add(new Anomaly(Check.CONTIGUOUS, id, "history rows but no orders row"));
            } else if (ok && row.version() != rows.size()) {
                anomalies.add(new Anomaly(Check.CONTIGUOUS, id, "orders row says v" + row.version() + " "
                        + name(Integer.toString(row.status())) + " but the applied history ends at v" + rows.size()));
            }
        });
        for (OrderRow r : orders.values()) {
            if (!byOrder.containsKey(r.orderId())) {
                anomalies.add(new Anomaly(Check.CONTIGUOUS, r.orderId(), "orders row v" + r.version() + " without any applied history"));
            }
        }
    }

    private void agree(Map<String, OrderRow> orders, Set<String> corrupted) {
        Set<String> flagged = new HashSet<>();
        try (SoakRedisLink conn = redis()) {
            Map<String, RedisState> states = redisStates(conn.async(), new ArrayList<>(orders.keySet()));
            for (OrderRow r : orders.values()) {
                if (corrupted.contains(r.orderId())) {
                    continue;
                }
                RedisState st = states.get(r.orderId());
                String mysql = name(Integer.toString(r.status())) + " v" + r.version();
                String problem = null;
                if (st == null || st.status() == null) {
                    problem = "MySQL has " + mysql + ", Redis has no state";
                } else if (!st.status().equals(Integer.toString(r.status())) || !st.version().equals(Long.toString(r.version()))) {
                    problem = "MySQL has " + mysql + ", Redis has " + name(st.status()) + " v" + st.version();
                } else if (WAIT_PAY.equals(st.status()) && st.queueScore() == null) {
                    problem = "WAIT_PAY in both but no cancel-queue entry";
                }
                if (problem != null) {
                    flagged.add(r.orderId());
                    anomalies.add(new Anomaly(Check.AGREE, r.orderId(), problem));
                }
            }
            RedisClusterCommands<String, String> sync = conn.sync();
            ScanArgs args = ScanArgs.Builder.matches("osm:{b??}:order:*").limit(1000);
            ScanCursor cur = ScanCursor.INITIAL;
            for (int round = 0; round < 1_000_000; round++) {
                KeyScanCursor<String> k = sync.scan(cur, args);
                for (String key : k.getKeys()) {
                    String id = key.substring(key.indexOf(":order:") + ":order:".length());
                    if (!orders.containsKey(id) && !corrupted.contains(id) && flagged.add(id)) {
                        anomalies.add(new Anomaly(Check.AGREE, id, "Redis has state " + sync.hmget(key, "status", "version")
                                + ", MySQL has no orders row"));
                    }
                }
                cur = k;
                if (k.isFinished()) {
                    break;
                }
            }
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                List<String> queued = sync.zrange(RedisKeys.cancelQueue(b), 0, -1);
                Map<String, RedisState> qs = redisStates(conn.async(), queued);
                for (String id : queued) {
                    RedisState st = qs.get(id);
                    if (!corrupted.contains(id) && (st == null || !WAIT_PAY.equals(st.status())) && flagged.add(id)) {
                        anomalies.add(new Anomaly(Check.AGREE, id, "cancel-queue entry, but Redis has "
                                + (st == null || st.status() == null ? "no state" : name(st.status()))));
                    }
                }
            }
        }
        // The product's own second comparison, for orders the plain one did not already name.
        for (Anomaly a : secondRun) {
            if (flagged.add(a.orderId())) {
                anomalies.add(a);
            }
        }
    }

    private void noCancelAfterPaid(List<SoakClients.Ack> acks, List<HistoryRow> history, Map<String, OrderRow> orders) {
        Map<String, Long> paidAt = new HashMap<>();
        Set<String> flagged = new HashSet<>();
        for (HistoryRow h : history) {
            if (h.to() == OrderStatus.PAID.code()) {
                paidAt.merge(h.orderId(), h.version(), Math::min);
            }
        }
        for (HistoryRow h : history) {
            Long p = paidAt.get(h.orderId());
            if (h.to() == OrderStatus.CANCELLED.code() && p != null && h.version() > p && flagged.add(h.orderId())) {
                anomalies.add(new Anomaly(Check.NO_CANCEL_AFTER_PAID, h.orderId(), "applied PAID v" + p + ", then CANCELLED v" + h.version()));
            }
        }
        // An acknowledged payment the history lost (invariant 1 names it too) and an order that ended cancelled.
        Set<SoakClients.Ack> excused = new HashSet<>(lostNoAof);
        excused.addAll(lostAofWindow);
        for (SoakClients.Ack a : acks) {
            OrderRow r = orders.get(a.orderId());
            if (a.target() == OrderStatus.PAID && !excused.contains(a) && r != null && r.status() == OrderStatus.CANCELLED.code()
                    && flagged.add(a.orderId())) {
                anomalies.add(new Anomaly(Check.NO_CANCEL_AFTER_PAID, a.orderId(), "PAID v" + a.version() + " acknowledged at "
                        + at(a.atMs()) + ", but the order ended CANCELLED v" + r.version()));
            }
        }
    }

    private void deadLetters(List<FaultInjector.Corruption> corruptions) {
        boolean exists = sql("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'dead_letter'",
                rs -> rs.getLong(1)).get(0) > 0;
        if (!exists) {
            notes.add("no dead-letter table yet");
            for (FaultInjector.Corruption c : corruptions) {
                anomalies.add(new Anomaly(Check.DEAD_LETTERS, c.orderId(), "corrupted (status=" + c.value() + " at " + at(c.atMs())
                        + ") but there is no dead-letter list (no dead-letter table yet)"));
            }
            return;
        }
        List<Map<String, Object>> rows = sql("SELECT * FROM dead_letter ORDER BY 1", rs -> {
            ResultSetMetaData md = rs.getMetaData();
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                m.put(md.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getObject(i));
            }
            return m;
        });
        notes.add("dead-letter list: " + rows.size() + " rows");
        Set<String> listed = new HashSet<>();
        Set<String> corruptedIds = new HashSet<>();
        corruptions.forEach(c -> corruptedIds.add(c.orderId()));
        Set<String> flagged = new HashSet<>();
        for (Map<String, Object> r : rows) {
            Object id = r.get("order_id");
            if (id != null) {
                listed.add(id.toString());
            }
            if ((id == null || !corruptedIds.contains(id.toString())) && flagged.add(String.valueOf(id))) {
                anomalies.add(new Anomaly(Check.DEAD_LETTERS, id == null ? "-" : id.toString(), "dead-lettered but never corrupted: bucket "
                        + r.get("bucket") + ", reason " + r.get("reason") + ", state " + r.get("state")));
            }
        }
        for (FaultInjector.Corruption c : corruptions) {
            if (!listed.contains(c.orderId())) {
                anomalies.add(new Anomaly(Check.DEAD_LETTERS, c.orderId(), "corrupted (status=" + c.value() + " at " + at(c.atMs())
                        + ", bucket " + RedisKeys.bucket(c.orderId()) + ") but not in the dead-letter list"));
            }
        }
    }

    // ---------------------------------------------------------------- plain reads

    private List<HistoryRow> history() {
        return sql("SELECT order_id, version, to_status FROM order_history WHERE result_code = 1 ORDER BY order_id, version, id",
                rs -> new HistoryRow(rs.getString(1), rs.getLong(2), rs.getInt(3)));
    }

    private Map<String, OrderRow> orders() {
        Map<String, OrderRow> m = new LinkedHashMap<>();
        for (OrderRow r : sql("SELECT order_id, status, version, expire_at_ms FROM orders ORDER BY order_id",
                rs -> new OrderRow(rs.getString(1), rs.getInt(2), rs.getLong(3), (Long) rs.getObject(4, Long.class)))) {
            m.put(r.orderId(), r);
        }
        return m;
    }

    @FunctionalInterface
    private interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private <T> List<T> sql(String query, RowMapper<T> mapper) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "root", ""); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(query)) {
            List<T> out = new ArrayList<>();
            while (rs.next()) {
                out.add(mapper.map(rs));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("soak check query failed: " + query + ": " + e.getMessage(), e);
        }
    }

    /** Status, version and queue score of many orders, pipelined in rounds of 1,000. */
    private SoakRedisLink redis() {
        return SoakRedisLink.open(redisUri, cluster, Duration.ofSeconds(10));
    }

    private static Map<String, RedisState> redisStates(RedisClusterAsyncCommands<String, String> a, List<String> ids) {
        Map<String, RedisState> out = new HashMap<>();
        for (int from = 0; from < ids.size(); from += 1000) {
            List<String> page = ids.subList(from, Math.min(ids.size(), from + 1000));
            List<RedisFuture<List<KeyValue<String, String>>>> hs = new ArrayList<>();
            List<RedisFuture<Double>> qs = new ArrayList<>();
            for (String id : page) {
                hs.add(a.hmget(RedisKeys.order(id), "status", "version"));
                qs.add(a.zscore(RedisKeys.cancelQueue(RedisKeys.bucket(id)), id));
            }
            for (int i = 0; i < page.size(); i++) {
                List<KeyValue<String, String>> kv = get(hs.get(i));
                out.put(page.get(i), new RedisState(kv.get(0).getValueOrElse(null), kv.get(1).getValueOrElse(null), get(qs.get(i))));
            }
        }
        return out;
    }

    private static <T> T get(RedisFuture<T> f) {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Redis read failed: " + e.getMessage(), e);
        }
    }

    /** @return a status code as its name, or quoted as found when it is none ("'7'", "'x'") */
    private static String name(String code) {
        try {
            return OrderStatus.ofCode(Integer.parseInt(code)).name();
        } catch (RuntimeException e) {
            return "'" + code + "'";
        }
    }

    private String at(long ms) {
        return String.format(Locale.ROOT, "t+%.1f s", (ms - t0) / 1000.0);
    }

    // ---------------------------------------------------------------- results

    List<Anomaly> anomalies() {
        return List.copyOf(anomalies);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    /** @return acknowledgements lost with the Redis data set that had no AOF, excused (within the window) */
    List<SoakClients.Ack> lostNoAof() {
        return List.copyOf(lostNoAof);
    }

    /** @return acknowledgements lost within ~2 s before a SIGKILL of Redis with AOF everysec, excused */
    List<SoakClients.Ack> lostAofWindow() {
        return List.copyOf(lostAofWindow);
    }
}
