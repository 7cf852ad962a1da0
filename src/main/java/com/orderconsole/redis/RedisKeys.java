package com.orderconsole.redis;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Redis key layout. Orders are spread over {@link #BUCKETS} buckets; every key of a bucket carries
 * the same hash tag ({@code {bNN}}), so one script can touch an order, its bucket's rules copy, outbox,
 * cancel queue and counters atomically, on a single server or on Redis Cluster alike.
 *
 * <pre>
 * osm:{b07}:order:&lt;id&gt;  hash   status, version, updateTime, createTime (ms)
 * osm:{b07}:rules        hash   the rules as the transition script reads them
 * osm:{b07}:outbox       stream outcomes waiting to be written to MySQL
 * osm:{b07}:cancelq      zset   member = order id, score = expiry (epoch ms)
 * osm:{b07}:stats        hash   c:&lt;code&gt;, e:&lt;from&gt;&gt;&lt;to&gt;, r:&lt;from&gt;&gt;&lt;to&gt;:&lt;code&gt;, n:&lt;status&gt;
 * osm:rules              string the rules as JSON (the source of truth for rules)
 * osm:sweeper            hash   last tick and pause flag of the cancel sweepers
 * osm:epoch              string marker of this Redis data set (absent after a data loss)
 * osm:dataset            string the data set this Redis belongs to; its MySQL carries the same id
 * osm:recovering         string set while a process restores the data set from MySQL (expires)
 * </pre>
 */
public final class RedisKeys {
    /** Number of buckets. Fixed: changing it would move every order to another key. */
    public static final int BUCKETS = 16;
    /** The rules JSON document. */
    public static final String RULES = "osm:rules";
    /** Random marker written when the rules are seeded; its absence means Redis lost its data. */
    public static final String EPOCH = "osm:epoch";
    /** The data set this Redis belongs to (survives a data loss in MySQL, is restored from there). */
    public static final String DATASET = "osm:dataset";
    /** Set while one process restores a data set (the marker it will set at the end); expires if it dies. */
    public static final String RECOVERING = "osm:recovering";
    /** Sweeper heartbeat and pause flag. */
    public static final String SWEEPER = "osm:sweeper";

    private RedisKeys() {
    }

    /** @return the bucket 0..15 of an order id (CRC-32 of its UTF-8 bytes) */
    public static int bucket(String orderId) {
        CRC32 crc = new CRC32();
        crc.update(orderId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % BUCKETS);
    }

    private static String tag(int bucket) {
        return "osm:{b" + (bucket < 10 ? "0" : "") + bucket + "}:";
    }

    /** @return the order's state hash key (the id must already be validated) */
    public static String order(String orderId) {
        return tag(bucket(orderId)) + "order:" + orderId;
    }

    /** @return the key of a bucket's copy of the rules */
    public static String rules(int bucket) {
        return tag(bucket) + "rules";
    }

    /** @return the key of a bucket's outbox stream */
    public static String outbox(int bucket) {
        return tag(bucket) + "outbox";
    }

    /** @return the key of a bucket's cancel queue */
    public static String cancelQueue(int bucket) {
        return tag(bucket) + "cancelq";
    }

    /** @return the key of a bucket's counters */
    public static String stats(int bucket) {
        return tag(bucket) + "stats";
    }
}
