package com.orderconsole;

import io.lettuce.core.api.sync.RedisCommands;
import redis.embedded.RedisShardedCluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real Redis Cluster of three masters (no replicas) for the whole test JVM, started on first use by
 * embedded-redis on free ports of the range where the cluster bus port (port + 10000) is free too.
 */
public final class TestCluster {
    private static RedisShardedCluster cluster;

    private TestCluster() {
    }

    /** Starts the cluster on first use (about 2-3 s). */
    public static synchronized void start() {
        if (cluster != null) {
            return;
        }
        // embedded-redis occasionally fails to start a node on a loaded machine ("Failed to start Redis
        // service", seen in a targeted test run): it is tried again on new ports, and a half-started cluster is never kept.
        IOException failed = null;
        for (int attempt = 1; attempt <= 3 && cluster == null; attempt++) {
            RedisShardedCluster c = null;
            try {
                c = RedisShardedCluster.newRedisCluster().ephemeralServers()
                        .shard("a", 0).shard("b", 0).shard("c", 0)
                        .initializationTimeout(Duration.ofSeconds(20)).build();
                c.start();
                cluster = c;
            } catch (IOException e) {
                failed = e;
                stopQuietly(c);
            }
        }
        if (cluster == null) {
            throw new UncheckedIOException(failed);
        }
        awaitOk();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                cluster.stop();
            } catch (IOException e) {
                // the JVM ends anyway
            }
        }));
    }

    private static void stopQuietly(RedisShardedCluster c) {
        if (c == null) {
            return;
        }
        try {
            c.stop();
        } catch (IOException | RuntimeException ignored) {
            // best effort: the nodes that did start are stopped
        }
    }

    /** @return the ports of the three masters */
    public static List<Integer> ports() {
        start();
        return new ArrayList<>(cluster.serverPorts());
    }

    /** @return an ordinary URI of one node, as an operator would give it */
    public static String seedUri() {
        return "redis://127.0.0.1:" + ports().get(0);
    }

    /** Runs {@code work} on a plain connection to one node (cluster commands, FLUSHALL of that node's keys). */
    public static <T> T onNode(int port, java.util.function.Function<RedisCommands<String, String>, T> work) {
        return ClusterNodes.onNode(port, work);
    }

    /** Empties every master and waits until the cluster answers again. */
    public static void reset() {
        for (int port : ports()) {
            onNode(port, r -> r.flushall());
        }
        awaitOk();
    }

    /**
     * Waits until every node says cluster_state:ok. embedded-redis returns once the slots are assigned, and a
     * node may still answer CLUSTERDOWN for a moment after that (seen in a full test run).
     */
    private static void awaitOk() {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!cluster.serverPorts().stream().allMatch(p -> onNode(p, RedisCommands::clusterInfo).contains("cluster_state:ok"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the test Redis Cluster did not reach cluster_state:ok within 20 s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * @return per master port, its node id and slot ranges as CLUSTER NODES says ("id", "slots" = "0-5460 …")
     */
    public static Map<Integer, String[]> nodes() {
        return ClusterNodes.masters(onNode(ports().get(0), RedisCommands::clusterNodes));
    }

    /** @return the port of the master serving {@code slot} */
    public static int ownerOf(int slot) {
        return ClusterNodes.ownerOf(slot, nodes());
    }
}
