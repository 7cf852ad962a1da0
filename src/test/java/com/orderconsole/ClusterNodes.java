package com.orderconsole;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the test clusters (the suite's {@link TestCluster} and the soak's own) read from a Redis Cluster node:
 * a plain connection to one node, and the masters and their slots as CLUSTER NODES says.
 */
public final class ClusterNodes {
    private ClusterNodes() {
    }

    /** Runs {@code work} on a plain connection to one node (cluster commands, FLUSHALL or SCRIPT FLUSH of that node). */
    public static <T> T onNode(int port, Function<RedisCommands<String, String>, T> work) {
        RedisURI u = RedisURI.create("redis://127.0.0.1:" + port);
        u.setTimeout(Duration.ofSeconds(5));
        RedisClient c = RedisClient.create(u);
        try (StatefulRedisConnection<String, String> conn = c.connect()) {
            return work.apply(conn.sync());
        } finally {
            c.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    /**
     * @param clusterNodes the reply of CLUSTER NODES
     * @return per master port, its node id and slot ranges ("id", "slots" = "0-5460 …"), in the reply's order
     */
    public static Map<Integer, String[]> masters(String clusterNodes) {
        Map<Integer, String[]> out = new LinkedHashMap<>();
        for (String line : clusterNodes.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 8 || !f[2].contains("master")) {
                continue;
            }
            String addr = f[1];
            int at = addr.indexOf('@');
            int port = Integer.parseInt(addr.substring(addr.indexOf(':') + 1, at > 0 ? at : addr.length()));
            StringBuilder slots = new StringBuilder();
            for (int i = 8; i < f.length; i++) {
                slots.append(slots.length() == 0 ? "" : " ").append(f[i]);
            }
            out.put(port, new String[]{f[0], slots.toString()});
        }
        return out;
    }

    /** @return the port of the master of {@code masters} (as {@link #masters} reads them) serving {@code slot} */
    public static int ownerOf(int slot, Map<Integer, String[]> masters) {
        for (Map.Entry<Integer, String[]> e : masters.entrySet()) {
            for (String range : e.getValue()[1].split(" ")) {
                if (range.isEmpty() || range.startsWith("[")) {
                    continue; // "[slot->-id]": a migration in progress, not ownership
                }
                String[] ab = range.split("-");
                int a = Integer.parseInt(ab[0]);
                int b = ab.length > 1 ? Integer.parseInt(ab[1]) : a;
                if (slot >= a && slot <= b) {
                    return e.getKey();
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }
}
