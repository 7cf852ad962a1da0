package com.orderconsole.redis;

import io.lettuce.core.ClientOptions;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;

import java.time.Duration;

/**
 * Opens a {@link RedisConnection}: checks the URI, connects, asks the node whether it is a Redis Cluster node and
 * then opens a single-server or a cluster client with the options each needs (reconnecting, failing fast while
 * disconnected, following slot moves), and loads the scripts. Split from {@link RedisConnection}, which only uses an
 * open connection: the choice between one server and a cluster is made here, once.
 */
final class RedisConnector {
    private RedisConnector() {
    }

    /** See {@link RedisConnection#requireUri}. */
    static RedisURI parse(String uri) {
        try {
            return RedisURI.create(uri);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + String.valueOf(uri).replaceFirst("//([^:@/]*):[^@/]*@", "//$1:***@")
                    + "' is not a Redis URI: expected redis://host:port/db, rediss://host:port/db for TLS, with user and "
                    + "password as redis://user:password@host:port");
        }
    }

    /**
     * Connects, finds out whether the server is a Redis Cluster node, and loads every script into the
     * script cache (of every master on a cluster).
     *
     * @param uri a Redis URI ({@code redis://host:port/db}, {@code rediss://} for TLS, password in the URI);
     *     for a cluster any one node's URI, database 0
     * @param commandTimeout how long one command may take before it fails
     * @return a connected Redis
     * @throws RedisUnavailableException when the server cannot be reached or does not speak the Redis protocol
     * @throws RedisRefusedException when the server refuses the user name or password (or wants one and got none)
     * @throws IllegalArgumentException when the URI is not a Redis URI, or names a database other than 0 on a cluster
     */
    static RedisConnection connect(String uri, Duration commandTimeout) {
        RedisURI redisUri = parse(uri);
        // The URI's timeout bounds the connect and its handshake (HELLO, AUTH, SELECT): a server that accepted the
        // connection is given the sign-in allowance, so a busy host's slow handshake is waited for; commands keep the
        // command timeout (TimeoutOptions below), and a refused or unreachable server fails at the socket's connect.
        redisUri.setTimeout(signInAllowance(commandTimeout));
        RedisClient client = RedisClient.create(resources(), redisUri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // Fail fast while disconnected instead of queueing commands for a server that is gone.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).keepAlive(true).build())
                .build());
        ReconnectLog.watch(client);
        String where = redisUri.getHost() + ":" + redisUri.getPort();
        RedisConnection redis;
        try {
            StatefulRedisConnection<String, String> conn = client.connect();
            redis = new RedisConnection(client, conn, redisUri, commandTimeout, where, true);
            if (clusterEnabled(redis)) {
                redis.close();
                if (redisUri.getDatabase() != 0) {
                    throw onlyDatabaseZero(where, redisUri.getDatabase());
                }
                redis = connectCluster(redisUri, commandTimeout, where);
            }
        } catch (RedisException e) {
            client.shutdown();
            client.getResources().shutdown();
            if (String.valueOf(RedisFailures.rootMessage(e)).contains("SELECT is not allowed in cluster mode")) {
                // The connection selects the URI's database first, which a cluster node refuses.
                throw onlyDatabaseZero(where, redisUri.getDatabase());
            }
            throw RedisFailures.connectFailure(e, where);
        }
        try {
            redis.loadScripts();
        } catch (RedisRefusedException e) {
            // A read-only session's Redis user may not touch scripts (ACL -@scripting); it can still read.
        }
        return redis;
    }

    /** How long a server that accepted the connection may take to complete the sign-in: at least 30 s. */
    static Duration signInAllowance(Duration commandTimeout) {
        return commandTimeout.compareTo(Duration.ofSeconds(30)) > 0 ? commandTimeout : Duration.ofSeconds(30);
    }

    /**
     * @return the client's own resources (threads, timers) with a command latency recorder that starts recording when the
     *     metrics are bound ({@link RedisConnection#recordCommandLatency}); shut down with the client
     */
    private static io.lettuce.core.resource.ClientResources resources() {
        return io.lettuce.core.resource.DefaultClientResources.builder().commandLatencyRecorder(new LatencySwitch())
                .nettyCustomizer(new OneWritePerBurst()).build();
    }

    /**
     * Commands sent close together leave in one write: each connection consolidates its flushes ({@link
     * FlushConsolidationHandler}), so the commands queued on its event loop, or sent while it reads replies, go out with
     * the last of them instead of one system call each, and Redis reads them with one call too (without it, every command
     * in flight costs a write on both sides). A command sent alone still leaves at once: the flush runs as the event
     * loop's next task.
     */
    private static final class OneWritePerBurst implements io.lettuce.core.resource.NettyCustomizer {
        @Override
        public void afterChannelInitialized(io.netty.channel.Channel channel) {
            channel.pipeline().addFirst(new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        }
    }

    private static IllegalArgumentException onlyDatabaseZero(String where, int database) {
        return new IllegalArgumentException("Redis at " + where + " is a Redis Cluster node, and a cluster has only "
                + "database 0, but the URI names database " + database + ": drop the /" + database + " from the URI");
    }

    /**
     * Whether this server runs in cluster mode ({@code INFO cluster}: {@code cluster_enabled:1}). A user
     * whose ACL refuses INFO is taken to be on a single server: it then sees MOVED errors on a cluster.
     */
    private static boolean clusterEnabled(RedisConnection redis) {
        try {
            String info = redis.await(redis.commands().info("cluster"), "INFO cluster");
            return info.contains("cluster_enabled:1");
        } catch (RedisRefusedException e) {
            return false;
        }
    }

    private static RedisConnection connectCluster(RedisURI seed, Duration commandTimeout, String where) {
        RedisClusterClient client = RedisClusterClient.create(resources(), seed);
        client.setOptions(ClusterClientOptions.builder()
                .autoReconnect(true)
                // Not REJECT_COMMANDS: the cluster client opens a master's connection when its first command
                // is sent, and would refuse that command. Queued commands still fail after the command timeout.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).keepAlive(true).build())
                // MOVED means a slot moved for good: learn the new layout at once, not on the next periodic refresh.
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(Duration.ofSeconds(30))
                        .enableAllAdaptiveRefreshTriggers()
                        .build())
                .maxRedirects(5)
                .validateClusterNodeMembership(false)
                .build());
        ReconnectLog.watch(client);
        try {
            return new RedisConnection(client, client.connect(), commandTimeout, where + " (cluster)", true);
        } catch (RedisException e) {
            client.shutdown();
            client.getResources().shutdown();
            throw e;
        }
    }
}
