package com.orderconsole.redis;

import com.orderconsole.domain.Failures;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connection to Redis and the Lua scripts: run by SHA, reloaded once after a script-cache loss
 * (NOSCRIPT). The stores of this package share one connection; commands from all threads are pipelined
 * by Lettuce.
 *
 * <p>One server or a Redis Cluster: {@link #connect} asks the node it is given ({@code INFO cluster})
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
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);
    /** The URI connected to on a single server (its database number included); null on a cluster. */
    private RedisURI uri;
    /** False for a {@link #separate} connection: the client belongs to the connection it was made from. */
    private final boolean ownsClient;

    private RedisConnection(RedisClient client, StatefulRedisConnection<String, String> connection, Duration timeout,
                            String where, boolean ownsClient) {
        this(client, connection, connection.async(), null, timeout, where, ownsClient);
    }

    private RedisConnection(RedisClusterClient client, StatefulRedisClusterConnection<String, String> connection,
                            Duration timeout, String where, boolean ownsClient) {
        this(client, connection, connection.async(), connection, timeout, where, ownsClient);
    }

    private RedisConnection(AbstractRedisClient client, StatefulConnection<String, String> connection,
                            RedisClusterAsyncCommands<String, String> async, StatefulRedisClusterConnection<String, String> cluster,
                            Duration timeout, String where, boolean ownsClient) {
        this.ownsClient = ownsClient;
        this.client = client;
        this.connection = connection;
        this.async = async;
        this.cluster = cluster;
        this.timeout = timeout;
        this.where = where;
        for (LuaScript s : LuaScript.values()) {
            shas.put(s, sha1(s.source()));
        }
    }

    /**
     * Checks a Redis URI's form without asking any server (the CLI refuses a malformed one as a usage error).
     *
     * @param uri e.g. {@code redis://host:6379/0}
     * @throws IllegalArgumentException in words, with any password in it masked
     */
    public static void requireUri(String uri) {
        parse(uri);
    }

    private static RedisURI parse(String uri) {
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
        redisUri.setTimeout(commandTimeout);
        RedisClient client = RedisClient.create(redisUri);
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
            redis = new RedisConnection(client, conn, commandTimeout, where, true);
            if (redis.clusterEnabled()) {
                redis.close();
                if (redisUri.getDatabase() != 0) {
                    throw new IllegalArgumentException("Redis at " + where + " is a Redis Cluster node, and a cluster has only "
                            + "database 0, but the URI names database " + redisUri.getDatabase() + ": drop the /"
                            + redisUri.getDatabase() + " from the URI");
                }
                redis = connectCluster(redisUri, commandTimeout, where);
            } else {
                redis.uri = redisUri;
            }
        } catch (RedisException e) {
            client.shutdown();
            if (String.valueOf(rootMessage(e)).contains("SELECT is not allowed in cluster mode")) {
                // The connection selects the URI's database first, which a cluster node refuses.
                throw new IllegalArgumentException("Redis at " + where + " is a Redis Cluster node, and a cluster has only "
                        + "database 0, but the URI names database " + redisUri.getDatabase() + ": drop the /"
                        + redisUri.getDatabase() + " from the URI");
            }
            throw connectFailure(e, where);
        }
        try {
            redis.loadScripts();
        } catch (RedisRefusedException e) {
            // A read-only session's Redis user may not touch scripts (ACL -@scripting); it can still read.
        }
        return redis;
    }

    /**
     * Words for a failed connection: Lettuce's and the server's own texts ("Invalid first byte", WRONGPASS)
     * tell a person neither what is wrong nor what to change.
     *
     * @param e what Lettuce threw while connecting
     * @param where "host:port"
     * @return the exception to throw: a {@link RedisRefusedException} when the server refused the credentials,
     *     else a {@link RedisUnavailableException}
     */
    static RuntimeException connectFailure(RedisException e, String where) {
        String root = String.valueOf(rootMessage(e));
        boolean notResp = false;
        for (Throwable t = e; t != null && !notResp; t = t.getCause() == t ? null : t.getCause()) {
            // "RedisHandshakeHandler not registered": the other server spoke first (MySQL's greeting) and the channel
            // failed before Lettuce's handshake began, a race with "Invalid first byte" (seen once in CI, 2026-12-01).
            String m = String.valueOf(t.getMessage());
            notResp = t instanceof io.lettuce.core.protocol.RedisProtocolException || m.contains("Invalid first byte")
                    || m.contains("RedisHandshakeHandler not registered");
        }
        if (notResp) {
            return new RedisUnavailableException("the server at " + where + " does not speak the Redis protocol (another "
                    + "kind of server, e.g. MySQL, listens there): is the Redis URI (--redis, or the profile's redis) pointing at "
                    + "the right port?", e);
        }
        if (root.startsWith("WRONGPASS") || root.contains("invalid username-password pair") || root.contains("invalid password")) {
            return new RedisRefusedException("Redis at " + where + " refused the user name or password of the Redis URI "
                    + "(wrong password, unknown or disabled user): check the user and password given for Redis", e);
        }
        if (root.startsWith("NOAUTH")) {
            return new RedisRefusedException("Redis at " + where + " asks for a password and none was given: give the Redis "
                    + "user and password (redis://user:password@host:port, or the profile's redis-user and redis-password-env)", e);
        }
        if (root.contains("without any password configured") || root.contains("no password is set")) {
            return new RedisRefusedException("Redis at " + where + " has no password set, but a password was given for it: "
                    + "leave the password out of the Redis URI", e);
        }
        return new RedisUnavailableException("cannot connect to Redis at " + where + ": " + root, e);
    }

    /**
     * Whether this server runs in cluster mode ({@code INFO cluster}: {@code cluster_enabled:1}). A user
     * whose ACL refuses INFO is taken to be on a single server: it then sees MOVED errors on a cluster.
     */
    private boolean clusterEnabled() {
        try {
            String info = await(async.info("cluster"), "INFO cluster");
            return info.contains("cluster_enabled:1");
        } catch (RedisRefusedException e) {
            return false;
        }
    }

    private static RedisConnection connectCluster(RedisURI seed, Duration commandTimeout, String where) {
        RedisClusterClient client = RedisClusterClient.create(seed);
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
            throw e;
        }
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
            return new RedisConnection((RedisClient) client, ((RedisClient) client).connect(), timeout, where, false);
        } catch (RedisException e) {
            throw connectFailure(e, where);
        }
    }

    /** Loads every script into the script cache of the server (of every master on a cluster); idempotent. */
    public void loadScripts() {
        for (Node n : masters()) {
            for (LuaScript s : LuaScript.values()) {
                String sha = await(n.commands().scriptLoad(s.source()), "SCRIPT LOAD " + s.file() + " on " + n.where());
                if (!sha.equals(shas.get(s))) {
                    throw new IllegalStateException("server " + n.where() + " returned SHA " + sha + " for " + s.file()
                            + ", expected " + shas.get(s));
                }
            }
        }
    }

    /** @return per script, whether the script cache of the server (of every master on a cluster) holds it right now */
    public Map<LuaScript, Boolean> scriptsCached() {
        LuaScript[] all = LuaScript.values();
        String[] digests = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            digests[i] = shas.get(all[i]);
        }
        Map<LuaScript, Boolean> out = new EnumMap<>(LuaScript.class);
        for (LuaScript s : all) {
            out.put(s, true);
        }
        for (Node n : masters()) {
            List<Boolean> exists = await(n.commands().scriptExists(digests), "SCRIPT EXISTS on " + n.where());
            for (int i = 0; i < all.length; i++) {
                out.merge(all[i], exists.get(i), Boolean::logicalAnd);
            }
        }
        return out;
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

    /**
     * How often a script refused with TRYAGAIN is sent again, {@link #TRYAGAIN_DELAY_MS} apart: on a
     * cluster, while a slot migrates, a script whose keys are split between the two masters is refused
     * (and not run) until the migration has moved them all; MIGRATE moves a batch in milliseconds.
     */
    private static final int TRYAGAIN_ATTEMPTS = 100;
    private static final long TRYAGAIN_DELAY_MS = 20;

    /**
     * Runs a script by SHA; when the server answers NOSCRIPT (cache flushed, server restarted) it
     * loads the script again (on every master of a cluster) and retries once; when a cluster answers
     * TRYAGAIN (the script's keys are split by a slot migration: nothing ran) it retries for up to 2 s.
     */
    <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return evalAsync(script, type, keys, args, 1);
    }

    private <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String[] args, int attempt) {
        String sha = shas.get(script);
        CompletableFuture<T> first = async.<T>evalsha(sha, type, keys, args).toCompletableFuture();
        return first.exceptionallyCompose(err -> {
            Throwable cause = Failures.unwrap(err);
            if (cause instanceof RedisNoScriptException) {
                return loadEverywhereAsync(script)
                        .thenCompose(loaded -> async.<T>evalsha(sha, type, keys, args).toCompletableFuture());
            }
            if (isTryAgain(cause) && attempt < TRYAGAIN_ATTEMPTS) {
                return CompletableFuture.supplyAsync(() -> null,
                                CompletableFuture.delayedExecutor(TRYAGAIN_DELAY_MS, TimeUnit.MILLISECONDS))
                        .thenCompose(x -> this.<T>evalAsync(script, type, keys, args, attempt + 1));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    private static boolean isTryAgain(Throwable t) {
        return t instanceof RedisCommandExecutionException && t.getMessage() != null && t.getMessage().startsWith("TRYAGAIN");
    }

    private CompletableFuture<Void> loadEverywhereAsync(LuaScript script) {
        if (cluster == null) {
            return async.scriptLoad(script.source()).toCompletableFuture().thenApply(sha -> null);
        }
        List<Node> masters = masters();
        CompletableFuture<?>[] fs = new CompletableFuture<?>[masters.size()];
        for (int i = 0; i < fs.length; i++) {
            fs[i] = masters.get(i).commands().scriptLoad(script.source()).toCompletableFuture();
        }
        return CompletableFuture.allOf(fs);
    }

    /** The commands of the shared connection (routed by key slot on a cluster), for the stores of this package. */
    RedisClusterAsyncCommands<String, String> commands() {
        return async;
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
            throw translate(e.getCause(), what);
        }
    }

    /** Maps a Lettuce failure to an exception with a message for people. */
    private RuntimeException translate(Throwable cause, String what) {
        cause = Failures.unwrap(cause);
        if (cause instanceof RedisCommandTimeoutException) {
            return new RedisUnavailableException("Redis at " + where + " did not answer " + what + " within "
                    + timeout.toMillis() + " ms", cause);
        }
        if (cause instanceof RedisCommandExecutionException re) {
            if (re.getMessage() != null && re.getMessage().startsWith("NOPERM")) {
                return new RedisRefusedException("Redis at " + where + " refused " + what
                        + ": the Redis user of this session may not run it (its ACL does not allow it)", re);
            }
            return re; // the server answered with an error: not an availability problem
        }
        if (cause instanceof RedisException || cause instanceof java.io.IOException) {
            // Connection refused, reset, closed or disconnected while the command was in flight.
            return new RedisUnavailableException("Redis at " + where + " is unreachable (" + what + "): "
                    + rootMessage(cause), cause);
        }
        if (cause instanceof RuntimeException re) {
            return re;
        }
        return new RedisUnavailableException("Redis " + what + " failed: " + rootMessage(cause), cause);
    }

    private static String rootMessage(Throwable t) {
        return Failures.message(Failures.root(t));
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        connection.close();
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
