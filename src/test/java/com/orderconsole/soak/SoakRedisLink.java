package com.orderconsole.soak;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;

/**
 * The soak's own plain Redis access for its checks and faults (no product code): one server or a Redis
 * Cluster, behind the commands both share. On a cluster each command goes to its key's master, and SCAN
 * walks every master in turn (Lettuce's cluster SCAN), so the checks read the same whichever master an
 * order lives on.
 */
final class SoakRedisLink implements AutoCloseable {
    private final RedisClient single;
    private final StatefulRedisConnection<String, String> singleConnection;
    private final RedisClusterClient cluster;
    private final StatefulRedisClusterConnection<String, String> clusterConnection;

    private SoakRedisLink(RedisClient single, StatefulRedisConnection<String, String> singleConnection,
                          RedisClusterClient cluster, StatefulRedisClusterConnection<String, String> clusterConnection) {
        this.single = single;
        this.singleConnection = singleConnection;
        this.cluster = cluster;
        this.clusterConnection = clusterConnection;
    }

    /**
     * @param uri the server, or any one node of the cluster
     * @param clusterMode whether {@code uri} is a cluster node
     * @param timeout command timeout
     */
    static SoakRedisLink open(String uri, boolean clusterMode, Duration timeout) {
        RedisURI u = RedisURI.create(uri);
        u.setTimeout(timeout);
        if (!clusterMode) {
            RedisClient c = RedisClient.create(u);
            try {
                return new SoakRedisLink(c, c.connect(), null, null);
            } catch (RuntimeException e) {
                c.shutdown(Duration.ZERO, Duration.ofSeconds(1));
                throw e;
            }
        }
        RedisClusterClient c = RedisClusterClient.create(u);
        // Slots move during the soak (MOVED/ASK): learn the new owner at once.
        c.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
                .validateClusterNodeMembership(false)
                .build());
        try {
            return new SoakRedisLink(null, null, c, c.connect());
        } catch (RuntimeException e) {
            c.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            throw e;
        }
    }

    RedisClusterCommands<String, String> sync() {
        return single != null ? singleConnection.sync() : clusterConnection.sync();
    }

    RedisClusterAsyncCommands<String, String> async() {
        return single != null ? singleConnection.async() : clusterConnection.async();
    }

    @Override
    public void close() {
        if (single != null) {
            singleConnection.close();
            single.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        } else {
            clusterConnection.close();
            cluster.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
