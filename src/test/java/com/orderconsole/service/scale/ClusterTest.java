package com.orderconsole.service.scale;

import com.orderconsole.Slow;
import com.orderconsole.RawSql;
import com.orderconsole.TestCluster;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.LuaScript;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Services;
import com.orderconsole.service.monitor.Health;
import com.orderconsole.service.monitor.RedisMaster;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.RepairResult;
import io.lettuce.core.MigrateArgs;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 16.1 and 16.2 on a real Redis Cluster of three masters: the engine, given one node's ordinary
 * URI, finds the cluster by itself; buckets spread evenly; scripts, sweeper, follower, reconciliation
 * and health work as on one server; a slot migrating under traffic loses nothing; a master restarted
 * empty is restored from MySQL; a script cache flushed on every node is reloaded.
 */
@Slow
class ClusterTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @BeforeEach
    void emptyStores() {
        TestServers.reset();
        TestCluster.reset();
    }

    @AfterEach
    void backToOneServer() {
        RedisKeys.useBuckets(RedisKeys.DEFAULT_BUCKETS);
    }

    private static Engine engine() {
        return Engine.start(TestServers.config().withServers(TestCluster.seedUri(), TestServers.mariaDb().jdbcUrl(), "root", ""));
    }

    /** @return ids of new orders that fall in {@code bucket} */
    private static List<String> idsIn(int bucket, String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; out.size() < n; i++) {
            if (RedisKeys.bucket(prefix + i) == bucket) {
                out.add(prefix + i);
            }
        }
        return out;
    }

    @Test
    void oneNodesUriIsEnoughAndTheBucketsSpreadEvenlyOverTheMasters() {
        try (Engine e = engine()) {
            Services s = e.services();
            assertThat(RedisKeys.buckets()).as("a cluster gets 64 buckets").isEqualTo(64);
            assertThat(RawSql.count("SELECT buckets FROM dataset_identity")).isEqualTo(64);

            Health h = s.health().check();
            assertThat(h.redisUp()).isTrue();
            assertThat(h.masters()).extracting(RedisMaster::where)
                    .containsExactlyInAnyOrderElementsOf(TestCluster.ports().stream().map(p -> "127.0.0.1:" + p).toList());
            assertThat(h.masters()).extracting(RedisMaster::buckets).allMatch(n -> n > 0);
            assertThat(h.masters().stream().mapToInt(RedisMaster::buckets).sum()).isEqualTo(64);
            // Checked against the cluster's own slot table: the CRC16 of each bucket's tag decides its master.
            for (RedisMaster m : h.masters()) {
                long expected = java.util.stream.IntStream.range(0, 64)
                        .filter(b -> ("127.0.0.1:" + TestCluster.ownerOf(SlotHash.getSlot(RedisKeys.hashTag(b)))).equals(m.where()))
                        .count();
                assertThat(m.buckets()).as(m.where()).isEqualTo(expected);
            }
            assertThat(h.maxOverMean()).as("busiest master over the mean").isLessThanOrEqualTo(1.15);
            assertThat(h.warnings()).noneMatch(w -> w.contains("busiest"));

            // Every path on the cluster: creation, transitions, the sweeper, the follower, reconciliation.
            for (int i = 0; i < 120; i++) {
                s.orders().create(support, "cl-" + i, null, i % 3 == 0 ? Duration.ofMillis(1) : Duration.ofHours(1));
            }
            for (int i = 1; i < 120; i += 3) {
                assertThat(s.transitions().transition(support, TransitionRequest.of("cl-" + i, OrderStatus.PAID, "test", "")).applied())
                        .isTrue();
            }
            assertThat(s.sweeper().sweepNow(ops)).as("unpaid orders past their deadline cancelled").isEqualTo(40);
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 6")).isEqualTo(40);
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2")).isEqualTo(40);
            for (int port : TestCluster.ports()) {
                assertThat(TestCluster.<Long>onNode(port, r -> r.dbsize())).as("orders on master %d", port).isPositive();
            }
            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.total()).as("%s", r.counts()).isZero();
            assertThat(r.ordersCompared()).isEqualTo(120);
            assertThat(s.queue().page(null, 1000).items()).extracting(QueueItem::orderId).hasSize(40);
            assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.WAIT_PAY, 40L)
                    .containsEntry(OrderStatus.PAID, 40L).containsEntry(OrderStatus.CANCELLED, 40L);
        }
    }

    @Test
    void aScriptCacheFlushedOnEveryNodeIsReloaded() {
        try (Engine e = engine()) {
            Services s = e.services();
            for (int i = 0; i < 30; i++) {
                s.orders().create(support, "sf-" + i, null, Duration.ofHours(1));
            }
            for (int port : TestCluster.ports()) {
                TestCluster.onNode(port, r -> r.scriptFlush());
            }
            for (int i = 0; i < 30; i++) {
                TransitionResult t = s.transitions().transition(support, TransitionRequest.of("sf-" + i, OrderStatus.PAID, "test", ""));
                assertThat(t.applied()).as("sf-" + i).isTrue();
            }
            for (int port : TestCluster.ports()) {
                TestCluster.onNode(port, r -> r.scriptFlush());
            }
            s.maintenance().runOnce();
            String[] shas = java.util.Arrays.stream(LuaScript.values()).map(l -> sha1(l.source())).toArray(String[]::new);
            for (int port : TestCluster.ports()) {
                assertThat(TestCluster.<List<Boolean>>onNode(port, r -> r.scriptExists(shas))).as("scripts on %d", port).containsOnly(true);
            }
        }
    }

    @Test
    void aSlotMigratingUnderTrafficLosesNothing() throws Exception {
        try (Engine e = engine()) {
            Services s = e.services();
            int bucket = 5;
            int slot = SlotHash.getSlot(RedisKeys.hashTag(bucket));
            List<String> ids = idsIn(bucket, "mig-", 150);
            for (String id : ids) {
                s.orders().create(support, id, null, Duration.ofHours(1));
            }
            int source = TestCluster.ownerOf(slot);
            int target = TestCluster.ports().stream().filter(p -> p != source).findFirst().orElseThrow();
            Map<Integer, String[]> nodes = TestCluster.nodes();
            String sourceId = nodes.get(source)[0];
            String targetId = nodes.get(target)[0];

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger applied = new AtomicInteger();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            OrderStatus[] path = {OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED};
            Thread traffic = new Thread(() -> {
                for (OrderStatus to : path) {
                    for (String id : ids) {
                        try {
                            TransitionResult t = s.transitions().transition(support, TransitionRequest.of(id, to, "test", ""));
                            if (t.applied()) {
                                applied.incrementAndGet();
                            } else {
                                failures.add(id + " → " + to + ": " + t.code());
                            }
                        } catch (RuntimeException ex) {
                            failures.add(id + " → " + to + ": " + ex.getMessage());
                        }
                    }
                }
                stop.set(true);
            });
            traffic.start();
            Thread.sleep(50);
            // The slot moves a few keys at a time while payments and shipments flow (CLUSTER SETSLOT + MIGRATE).
            TestCluster.onNode(target, r -> r.clusterSetSlotImporting(slot, sourceId));
            TestCluster.onNode(source, r -> r.clusterSetSlotMigrating(slot, targetId));
            int moved = 0;
            while (true) {
                List<String> keys = TestCluster.onNode(source, r -> r.clusterGetKeysInSlot(slot, 7));
                if (keys.isEmpty()) {
                    break;
                }
                TestCluster.onNode(source, r -> r.migrate("127.0.0.1", target, 0, 5000, MigrateArgs.Builder.keys(keys)));
                moved += keys.size();
                Thread.sleep(5);
            }
            for (int port : TestCluster.ports()) {
                TestCluster.onNode(port, r -> r.clusterSetSlotNode(slot, targetId));
            }
            traffic.join(60_000);
            assertThat(stop.get()).as("traffic finished").isTrue();
            assertThat(failures).as("every transition accepted during the migration").isEmpty();
            assertThat(applied.get()).isEqualTo(ids.size() * path.length);
            assertThat(moved).as("keys moved").isGreaterThan(ids.size());
            assertThat(TestCluster.ownerOf(slot)).isEqualTo(target);
            assertThat(TestCluster.<Long>onNode(target, r -> r.clusterCountKeysInSlot(slot))).isPositive();
            assertThat(TestCluster.<Long>onNode(source, r -> r.clusterCountKeysInSlot(slot))).isZero();

            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE result_code = 1 AND order_id LIKE 'mig-%' AND from_status IS NOT NULL"))
                    .as("every accepted transition in MySQL's history, once").isEqualTo(ids.size() * path.length);
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'mig-%' AND status = 5")).isEqualTo(ids.size());
            assertThat(s.health().check().masters().stream().filter(m -> m.where().equals("127.0.0.1:" + target))
                    .findFirst().orElseThrow().buckets()).as("health sees the bucket on its new master").isPositive();
            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.total()).as("%s", r.counts()).isZero();
        }
    }

    @Test
    void aMasterRestartedEmptyIsRestoredFromMySql() {
        try (Engine e = engine()) {
            Services s = e.services();
            for (int i = 0; i < 90; i++) {
                s.orders().create(support, "wipe-" + i, null, Duration.ofHours(1));
                if (i % 2 == 1) {
                    s.transitions().transition(support, TransitionRequest.of("wipe-" + i, OrderStatus.PAID, "test", ""));
                }
            }
            s.follower().drainOnce();
            int victim = TestCluster.ports().get(1);
            List<String> onVictim = new ArrayList<>();
            for (int i = 0; i < 90; i++) {
                if (TestCluster.ownerOf(SlotHash.getSlot(RedisKeys.hashTag(RedisKeys.bucket("wipe-" + i)))) == victim) {
                    onVictim.add("wipe-" + i);
                }
            }
            assertThat(onVictim).isNotEmpty();
            TestCluster.onNode(victim, r -> r.flushall()); // what a master restarted without its data holds

            s.maintenance().runOnce();
            for (String id : onVictim) {
                int n = Integer.parseInt(id.substring("wipe-".length()));
                if (n % 2 == 0) {
                    assertThat(s.orders().lookup(id).summary().redisStatus()).as(id + " unpaid: back with its queue entry")
                            .isEqualTo(OrderStatus.WAIT_PAY);
                    assertThat(s.orders().lookup(id).queueExpiryMs()).as(id).isNotNull();
                }
            }
            String paid = onVictim.stream().filter(id -> Integer.parseInt(id.substring(5)) % 2 == 1).findFirst().orElseThrow();
            TransitionResult t = s.transitions().transition(support, TransitionRequest.of(paid, OrderStatus.WAIT_SHIP, "test", ""));
            assertThat(t.applied()).as("a paid order on the wiped master is rebuilt as PAID and moves on").isTrue();
            assertThat(t.version()).isEqualTo(3);
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = '" + paid + "'")).isEqualTo(OrderStatus.WAIT_SHIP.code());

            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.counts().entrySet()).filteredOn(c -> c.getValue() > 0).extracting(Map.Entry::getKey)
                    .as("%s", r.counts()).containsOnly(ReconCategory.MISSING_IN_REDIS);
            RepairResult fixed = s.reconciliation().repair(ops, r, ReconCategory.MISSING_IN_REDIS, "master restarted empty",
                    ReconProgress.NONE, () -> false);
            assertThat(fixed.failed()).isZero();
            ReconReport after = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(after.total()).as("%s", after.counts()).isZero();
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id LIKE 'wipe-%' AND to_status = 1"))
                    .as("no order was made anew").isEqualTo(90);
        }
    }

    @Test
    void aDatabaseOtherThanZeroIsRefusedInWords() {
        assertThatThrownBy(() -> Engine.start(TestServers.config().withServers(TestCluster.seedUri() + "/3",
                TestServers.mariaDb().jdbcUrl(), "root", "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a Redis Cluster node, and a cluster has only database 0")
                .hasMessageContaining("drop the /3");
    }

    private static String sha1(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
