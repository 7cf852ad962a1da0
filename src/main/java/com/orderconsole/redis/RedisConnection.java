package com.orderconsole.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connection to Redis: the stores of this package share one; commands from all threads are pipelined
 * by Lettuce. Opened by {@link RedisConnector}; the Lua scripts are run by {@link ScriptRunner} (by SHA, reloaded
 * after a script-cache loss); failures are put into words by {@link RedisFailures}.
 *
 * <p>One server or a Redis Cluster: {@link RedisConnector#connect} asks the node it is given ({@code INFO cluster})
 * and, on a cluster node, uses Lettuce's cluster client, which sends each command to the master of its
 * key's slot and follows MOVED and ASK redirections during a slot migration. Every key a script touches
 * carries its bucket's hash tag, so every script runs unchanged on either. What must reach every master
 * (SCAN, SCRIPT LOAD, INFO) goes through {@link #masters()}.
 *
 * <p>Naming rule of the package: a method that returns a {@link CompletableFuture} ends in
 * {@code Async}; every other method blocks at most the command timeout and then throws
 * {@link RedisUnavailableException}. Times are epoch milliseconds from the Redis server clock.
 */
public final class RedisConnection implements AutoCloseable {
    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterAsyncCommands<String, String> async;
    /** Null on a single server. */
    private final StatefulRedisClusterConnection<String, String> cluster;
    private final Duration timeout;
    private final String where;
    private final ScriptRunner scripts;
    /** The URI connected to on a single server (its database number included); null on a cluster and a separate connection. */
    private final RedisURI uri;
    /** False for a {@link #separate} connection: the client belongs to the connection it was made from. */
    private final boolean ownsClient;

    /** A single server's connection; {@code uri} null for a {@link #separate} one. */
    RedisConnection(RedisClient client, StatefulRedisConnection<String, String> connection, RedisURI uri, Duration timeout,
                    String where, boolean ownsClient) {
        this(client, connection, connection.async(), null, uri, timeout, where, ownsClient);
    }

    /** A cluster's connection. */
    RedisConnection(RedisClusterClient client, StatefulRedisClusterConnection<String, String> connection,
                    Duration timeout, String where, boolean ownsClient) {
        this(client, connection, connection.async(), connection, null, timeout, where, ownsClient);
    }

    private RedisConnection(AbstractRedisClient client, StatefulConnection<String, String> connection,
                            RedisClusterAsyncCommands<String, String> async, StatefulRedisClusterConnection<String, String> cluster,
                            RedisURI uri, Duration timeout, String where, boolean ownsClient) {
        this.ownsClient = ownsClient;
        this.client = client;
        this.connection = connection;
        this.async = async;
        this.cluster = cluster;
        this.timeout = timeout;
        this.where = where;
        this.uri = uri;
        this.scripts = new ScriptRunner(new ScriptRunner.Server() {
            @Override
            public RedisClusterAsyncCommands<String, String> commands() {
                return RedisConnection.this.async;
            }

            @Override
            public List<ScriptRunner.Master> masters() {
                return RedisConnection.this.masters().stream().map(n -> new ScriptRunner.Master(n.where(), n.commands())).toList();
            }

            @Override
            public boolean isCluster() {
                return RedisConnection.this.cluster != null;
            }

            @Override
            public <T> T await(CompletionStage<T> f, String what) {
                return RedisConnection.this.await(f, what);
            }
        });
    }

    /**
     * Checks a Redis URI's form without asking any server (the CLI refuses a malformed one as a usage error).
     *
     * @param uri e.g. {@code redis://host:6379/0}
     * @throws IllegalArgumentException in words, with any password in it masked
     */
    public static void requireUri(String uri) {
        RedisConnector.parse(uri);
    }

    /**
     * A second connection to the same server with the same options, for work whose commands must not
     * queue in front of others' (the cancel sweeper's batches ahead of payments: Redis answers one
     * connection's pipeline in order). Closed with this connection's client.
     *
     * @throws RedisUnavailableException when the server cannot be reached
     */
    public RedisConnection separate() {
        try {
            if (cluster != null) {
                return new RedisConnection((RedisClusterClient) client, ((RedisClusterClient) client).connect(), timeout, where, false);
            }
            return new RedisConnection((RedisClient) client, ((RedisClient) client).connect(), null, timeout, where, false);
        } catch (RedisException e) {
            throw RedisFailures.connectFailure(e, where);
        }
    }

    /** Loads every script into the script cache of the server (of every master on a cluster); idempotent. */
    public void loadScripts() {
        scripts.loadScripts();
    }

    /** @return per script, whether the script cache of the server (of every master on a cluster) holds it right now */
    public Map<LuaScript, Boolean> scriptsCached() {
        return scripts.scriptsCached();
    }

    /**
     * Runs a script by SHA (see {@link ScriptRunner#evalAsync}: reloaded after NOSCRIPT, retried after TRYAGAIN).
     *
     * @param keys the script's KEYS, each carrying its bucket's hash tag
     * @param args the script's ARGV
     */
    <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return scripts.evalAsync(script, type, keys, args);
    }

    /**
     * One master (the server itself when it is not a cluster), with its own commands.
     *
     * @param id the cluster node id ("" on a single server)
     * @param where "host:port"
     * @param slots the hash slots it serves (every slot on a single server)
     */
    record Node(String id, String where, List<int[]> slots, RedisClusterAsyncCommands<String, String> commands) {
        boolean serves(int slot) {
            for (int[] r : slots) {
                if (slot >= r[0] && slot <= r[1]) {
                    return true;
                }
            }
            return false;
        }
    }

    /** @return true when this is a Redis Cluster */
    public boolean isCluster() {
        return cluster != null;
    }

    /**
     * The masters as this connection last learnt them (a cluster's layout is refreshed on MOVED and
     * every 30 s); on a single server, the server.
     */
    List<Node> masters() {
        if (cluster == null) {
            return List.of(new Node("", where, List.of(new int[]{0, SlotHash.SLOT_COUNT - 1}), async));
        }
        Partitions partitions = cluster.getPartitions();
        List<Node> out = new ArrayList<>();
        for (RedisClusterNode n : partitions) {
            if (n.is(RedisClusterNode.NodeFlag.UPSTREAM) && !n.getSlots().isEmpty()) {
                List<int[]> ranges = new ArrayList<>();
                int first = -1;
                int prev = -2;
                for (int slot : n.getSlots()) {
                    if (slot != prev + 1) {
                        if (first >= 0) {
                            ranges.add(new int[]{first, prev});
                        }
                        first = slot;
                    }
                    prev = slot;
                }
                ranges.add(new int[]{first, prev});
                String hostPort = n.getUri().getHost() + ":" + n.getUri().getPort();
                out.add(new Node(n.getNodeId(), hostPort, ranges, cluster.async().getConnection(n.getNodeId())));
            }
        }
        out.sort(java.util.Comparator.comparing(Node::where));
        return out;
    }

    /**
     * Which master holds each bucket's keys (by the CRC16 hash slot of the bucket's tag).
     *
     * @return master "host:port" to the buckets it holds, masters in address order (a master holding no
     *     bucket is listed with none)
     */
    public Map<String, List<Integer>> bucketsPerMaster() {
        List<Node> masters = masters();
        Map<String, List<Integer>> out = new LinkedHashMap<>();
        masters.forEach(n -> out.put(n.where(), new ArrayList<>()));
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            int slot = SlotHash.getSlot(RedisKeys.hashTag(b));
            for (Node n : masters) {
                if (n.serves(slot)) {
                    out.get(n.where()).add(b);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * {@code INFO <section>} of every master, as the server wrote it.
     *
     * @param section e.g. "cpu", "memory", "commandstats"
     * @return master "host:port" to its INFO text
     */
    public Map<String, String> infoPerMaster(String section) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Node n : masters()) {
            out.put(n.where(), await(n.commands().info(section), "INFO " + section + " on " + n.where()));
        }
        return out;
    }

    /**
     * {@code CONFIG GET} of every master.
     *
     * @return master "host:port" to the value (null where CONFIG is disabled, as managed services often do)
     */
    public Map<String, String> configGetPerMaster(String name) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Node n : masters()) {
            try {
                out.put(n.where(), await(n.commands().configGet(name), "CONFIG GET " + name).get(name));
            } catch (RedisUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                out.put(n.where(), null);
            }
        }
        return out;
    }

    /** The commands of the shared connection (routed by key slot on a cluster), for the stores of this package. */
    RedisClusterAsyncCommands<String, String> commands() {
        return async;
    }

    /** @return how long a command waits for Redis' answer before it fails (the command timeout) */
    public Duration timeout() {
        return timeout;
    }

    /** @return the Redis server clock, epoch milliseconds: the one time source of the product */
    public long nowMs() {
        List<String> t = await(async.time(), "TIME");
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    /** @return the value of a server config parameter (CONFIG GET), or null when unavailable */
    public String configGet(String name) {
        try {
            Map<String, String> m = await(async.configGet(name), "CONFIG GET " + name);
            return m.get(name);
        } catch (RedisUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            return null; // managed Redis services often disable CONFIG
        }
    }

    /** @return true when the server answers PING within the command timeout */
    public boolean ping() {
        try {
            return "PONG".equals(await(async.ping(), "PING"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** @return the database number this connection works in (always 0 on a cluster) */
    public int database() {
        return uri == null ? 0 : uri.getDatabase();
    }

    private static final java.util.regex.Pattern KEYSPACE_LINE = java.util.regex.Pattern.compile("^db(\\d+):keys=\\d+");

    /**
     * The value of one key in every other database of this server that holds keys ({@code INFO keyspace}), to tell
     * a URI naming the wrong database from a Redis that lost its data. Each database is read over a short-lived
     * connection of its own, so this connection's database stays selected.
     *
     * @param key e.g. the data-set id's key
     * @return database number to the key's value, only where it is set; empty on a cluster (database 0 only) and
     *     when the server refuses INFO
     * @throws RedisUnavailableException when the server does not answer
     */
    public Map<Integer, String> valueInOtherDatabases(String key) {
        if (uri == null) {
            return Map.of();
        }
        String info;
        try {
            info = await(async.info("keyspace"), "INFO keyspace");
        } catch (RedisRefusedException e) {
            return Map.of();
        }
        Map<Integer, String> out = new java.util.TreeMap<>();
        for (String line : info.split("\r?\n")) {
            java.util.regex.Matcher m = KEYSPACE_LINE.matcher(line.trim());
            if (!m.find() || Integer.parseInt(m.group(1)) == uri.getDatabase()) {
                continue;
            }
            int db = Integer.parseInt(m.group(1));
            try (StatefulRedisConnection<String, String> other = ((RedisClient) client).connect(RedisURI.builder(uri).withDatabase(db).build())) {
                String value = other.sync().get(key);
                if (value != null) {
                    out.put(db, value);
                }
            } catch (RedisException e) {
                // A database this user may not read tells nothing about where the data set is.
            }
        }
        return out;
    }

    /** @return "host:port" of the server, for messages (never includes a password) */
    public String where() {
        return where;
    }

    /**
     * Waits for a future of this package at most the command timeout, turning failures into readable errors.
     *
     * @param f a future returned by an {@code xxxAsync} method
     * @param what the call in words, for the error, e.g. "transition o-1"
     * @return the future's value
     * @throws RedisUnavailableException when Redis did not answer in time or the connection failed
     */
    public <T> T await(CompletionStage<T> f, String what) {
        try {
            return f.toCompletableFuture().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new RedisUnavailableException("Redis at " + where + " did not answer " + what + " within "
                    + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisUnavailableException("interrupted while waiting for Redis (" + what + ")", e);
        } catch (ExecutionException e) {
            throw RedisFailures.command(e.getCause(), what, where, timeout);
        }
    }

    /**
     * The failure a caller of an {@code xxxAsync} method reports when it does not wait with {@link #await}: the same
     * readable error (an HTTP front end answers "unavailable" for a lost connection, not a library's text).
     *
     * @param cause what the future failed with
     * @param what the call in words, e.g. "transition o-1"
     * @return a {@link RedisUnavailableException} when Redis did not answer or the connection failed, else the failure
     */
    public RuntimeException failure(Throwable cause, String what) {
        return RedisFailures.command(cause, what, where, timeout);
    }

    /**
     * Starts recording every command's latency into the registry, for this connection and every other one of its client
     * (Lettuce's Micrometer timers {@code lettuce.command.firstresponse} and {@code lettuce.command.completion}, by command
     * and server). Nothing when the client was not built by {@link RedisConnector} (a test's own).
     *
     * @param registry the process's meter registry
     */
    public void recordCommandLatency(io.micrometer.core.instrument.MeterRegistry registry) {
        if (client.getResources().commandLatencyRecorder() instanceof LatencySwitch s) {
            s.recordTo(registry);
        }
    }

    @Override
    public void close() {
        connection.close();
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            // The connector gave the client resources of its own (the latency recorder): the client leaves them running.
            client.getResources().shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
