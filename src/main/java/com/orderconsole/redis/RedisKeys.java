package com.orderconsole.redis;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Redis key layout. Orders are spread over {@link #buckets()} buckets; every key of a bucket carries
 * the same hash tag ({@code {bNN}}), so one script can touch an order, its bucket's rules copy, outbox,
 * cancel queue and counters atomically, on a single server or on Redis Cluster alike.
 *
 * <p>The bucket count is chosen when a data set is initialised and never changes afterwards (it would
 * move every order to another key): 16 on a single server, 64 on a cluster (the CRC16 slots of 16 tags
 * land 4 / 8 / 4 on three masters' default slot ranges, of 64 tags 22 / 24 / 18). It is recorded in
 * Redis ({@code osm:buckets}) and MySQL ({@code dataset_identity.buckets}); the engine sets it here
 * with {@link #useBuckets} before any service starts, once per process.
 *
 * <pre>
 * osm:{b07}:order:&lt;id&gt;  hash   status, version, updateTime, createTime (ms)
 * osm:{b07}:rules        hash   the rules as the transition script reads them
 * osm:{b07}:outbox       stream outcomes waiting to be written to MySQL
 * osm:{b07}:cancelq      zset   member = order id, score = expiry (epoch ms)
 * osm:{b07}:stats        hash   c:&lt;code&gt;, m:&lt;from&gt;&gt;&lt;to&gt;, r:&lt;from&gt;&gt;&lt;to&gt;:&lt;code&gt;, n:&lt;status&gt;,
 *                               x = the last outbox entry counted (count_outbox.lua)
 * osm:rules              string the rules as JSON (the source of truth for rules)
 * osm:sweeper            hash   last tick and pause flag of the cancel sweepers
 * osm:epoch              string marker of this Redis data set (absent after a data loss)
 * osm:dataset            string the data set this Redis belongs to; its MySQL carries the same id
 * osm:recovering         string set while a process restores the data set from MySQL (expires)
 * osm:fenced             string why the data set was found behind MySQL; set until its restore is done
 * osm:buckets            string the bucket count of this data set
 * osm:api:revoked        hash   revoked API client name to its revocation time (ms), read by every serve
 * </pre>
 */
public final class RedisKeys {
    /** Bucket count of a data set initialised on a single server (and of every data set made before it was chosen). */
    public static final int DEFAULT_BUCKETS = 16;
    /** Bucket count of a data set initialised on a Redis Cluster: max/mean buckets per master 1.125 on 3 masters. */
    public static final int DEFAULT_CLUSTER_BUCKETS = 64;
    /** Largest bucket count accepted: every bucket costs the follower and the sweeper a call per round. */
    public static final int MAX_BUCKETS = 1024;
    /** The bucket count of the data set. */
    public static final String BUCKET_COUNT = "osm:buckets";
    private static volatile int buckets = DEFAULT_BUCKETS;
    /** The rules JSON document. */
    public static final String RULES = "osm:rules";
    /** Random marker written when the rules are seeded; its absence means Redis lost its data. */
    public static final String EPOCH = "osm:epoch";
    /** The data set this Redis belongs to (survives a data loss in MySQL, is restored from there). */
    public static final String DATASET = "osm:dataset";
    /** Set while one process restores a data set (the marker it will set at the end); expires if it dies. */
    public static final String RECOVERING = "osm:recovering";
    /**
     * Set (with the reason) when a process finds Redis behind MySQL (the follower's fence, a cluster master that
     * came back empty) and removed when the data set's restore is done: while it is there no transition runs
     * (issue 25). A Redis that lost everything has none, so its orders are rebuilt from MySQL on use as before.
     */
    public static final String FENCED = "osm:fenced";
    /** Revoked API clients (name to revocation time, ms): every serve refuses their tokens even while MySQL is away. */
    public static final String API_REVOKED = "osm:api:revoked";
    /** Sweeper heartbeat and pause flag. */
    public static final String SWEEPER = "osm:sweeper";

    private RedisKeys() {
    }

    /** @return the bucket count of the data set this process works on */
    public static int buckets() {
        return buckets;
    }

    /**
     * Sets the bucket count of the data set this process works on; called by the engine once the count
     * recorded for the data set is known, before any service is built.
     *
     * @param count 1..{@link #MAX_BUCKETS}
     * @throws IllegalArgumentException when out of range
     */
    public static void useBuckets(int count) {
        requireValid(count);
        buckets = count;
    }

    /**
     * @param count a bucket count asked for
     * @return the count when it is usable
     * @throws IllegalArgumentException naming the range when it is not
     */
    public static int requireValid(int count) {
        if (count < 1 || count > MAX_BUCKETS) {
            throw new IllegalArgumentException("bucket count " + count + " is out of range: use 1 to " + MAX_BUCKETS
                    + " (16 suits one server, 64 or more a cluster)");
        }
        return count;
    }

    /** @return the bucket 0..buckets()-1 of an order id (CRC-32 of its UTF-8 bytes) */
    public static int bucket(String orderId) {
        CRC32 crc = new CRC32();
        crc.update(orderId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % buckets);
    }

    /** @return the hash tag of a bucket, e.g. "b07": Redis Cluster places the bucket's keys by its CRC16 */
    public static String hashTag(int bucket) {
        return "b" + (bucket < 10 ? "0" : "") + bucket;
    }

    private static String tag(int bucket) {
        return "osm:{" + hashTag(bucket) + "}:";
    }

    /*
     * A bucket's keys, made once: every transition names four of them (issue 15, allocation profile of the sweep storm:
     * building them was a tenth of what the bench JVM allocated, and young-GC pauses set the storm's PAY p99). Filled
     * lazily; a race only builds the same string twice (strings are safely published).
     */
    private static final String[] RULES_KEYS = new String[MAX_BUCKETS];
    private static final String[] OUTBOX_KEYS = new String[MAX_BUCKETS];
    private static final String[] QUEUE_KEYS = new String[MAX_BUCKETS];
    private static final String[] STATS_KEYS = new String[MAX_BUCKETS];
    private static final String[] ORDER_PREFIXES = new String[MAX_BUCKETS];

    private static String key(String[] made, int bucket, String name) {
        String k = made[bucket];
        if (k == null) {
            k = tag(bucket) + name;
            made[bucket] = k;
        }
        return k;
    }

    /** @return the order's state hash key (the id must already be validated) */
    public static String order(String orderId) {
        return key(ORDER_PREFIXES, bucket(orderId), "order:") + orderId;
    }

    /** @return the key of a bucket's copy of the rules */
    public static String rules(int bucket) {
        return key(RULES_KEYS, bucket, "rules");
    }

    /** @return the key of a bucket's outbox stream */
    public static String outbox(int bucket) {
        return key(OUTBOX_KEYS, bucket, "outbox");
    }

    /** @return the key of a bucket's cancel queue */
    public static String cancelQueue(int bucket) {
        return key(QUEUE_KEYS, bucket, "cancelq");
    }

    /** @return the key of a bucket's counters */
    public static String stats(int bucket) {
        return key(STATS_KEYS, bucket, "stats");
    }
}
