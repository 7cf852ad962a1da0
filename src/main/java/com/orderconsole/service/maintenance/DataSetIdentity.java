package com.orderconsole.service.maintenance;


import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;

/**
 * Makes sure a Redis and a MySQL are one system's pair before anything runs: both carry a data-set id
 * (Redis key {@code osm:dataset}, MySQL table {@code dataset_identity}). A Redis that lost its data takes
 * its MySQL's id again; a Redis that belongs to another data set, or one paired before with a MySQL
 * that has none, is refused: the follower would otherwise apply one system's transitions into another's
 * record and trim them from the real one.
 *
 * <p>The data set's bucket count is part of its identity (Redis key {@code osm:buckets}, MySQL column
 * {@code dataset_identity.buckets}): chosen when the data set is first recorded, and a process asking
 * for another count later is refused, because the count decides which key holds every order.
 */
public final class DataSetIdentity {
    private static final Logger log = LoggerFactory.getLogger(DataSetIdentity.class);

    private final RedisConnection redis;
    private final DataSetStore marker;
    private final Database db;
    /** The count settled by {@link #settleBuckets}, recorded with a new pairing. */
    private volatile int buckets = RedisKeys.buckets();

    /** Built by the wiring ({@code app.Services}), or by the engine to settle the bucket count before the services exist. */
    public DataSetIdentity(RedisConnection redis, DataSetStore marker, Database db) {
        this.redis = redis;
        this.marker = marker;
        this.db = db;
    }

    /** {@link #verifyPairing(boolean)} that may record a new pairing. */
    public String verifyPairing() {
        return verifyPairing(true);
    }

    /**
     * Checks the pairing, recording a new id on both sides when neither has one (or in Redis, after it
     * lost its data) if {@code mayRecord}.
     *
     * @param mayRecord false for sessions that may not write: an unrecorded pairing is then left as it is
     * @return the data-set id both sides carry, or null when it is not recorded yet and may not be
     * @throws IllegalStateException naming both servers when they are not a pair (nothing is changed)
     */
    public String verifyPairing(boolean mayRecord) {
        String inMysql = db.read(t -> t.dataset().get());
        String inRedis = marker.datasetId();
        if (inMysql == null && inRedis != null) {
            throw new IllegalStateException("Redis at " + redis.where() + " belongs to data set " + inRedis
                    + ", but MySQL at " + db.where() + " has never been its durable record (it has no data set): "
                    + "refusing to pair them. Point both at the same system's servers");
        }
        if (inMysql != null && inRedis == null) {
            refuseWrongDatabase(inMysql);
        }
        if (!mayRecord && (inMysql == null || inRedis == null)) {
            return inMysql == null ? null : inMysql;
        }
        if (inMysql == null) {
            String fresh = UUID.randomUUID().toString();
            int count = buckets;
            inMysql = db.inTransaction(t -> t.dataset().claim(fresh, System.currentTimeMillis(), count));
            log.info("recorded data set {} with {} buckets in MySQL at {}", inMysql, count, db.where());
        }
        if (inRedis == null) {
            inRedis = marker.claimDatasetId(inMysql);
        }
        Integer mysqlBuckets = db.read(t -> t.dataset().buckets());
        if (mysqlBuckets != null) {
            // Another process may have recorded the data set first, with another count; or Redis lost the key.
            Integer inRedisBuckets = mayRecord ? Integer.valueOf(marker.claimBucketCount(mysqlBuckets)) : marker.bucketCount();
            if (mysqlBuckets != buckets || inRedisBuckets != null && !inRedisBuckets.equals(mysqlBuckets)) {
                throw new IllegalStateException("the data set was recorded with " + mysqlBuckets + " buckets in MySQL at "
                        + db.where() + " and " + inRedisBuckets + " in Redis at " + redis.where() + ", but this process "
                        + "works with " + buckets + ": refusing to start. Start it again without --buckets");
            }
        }
        if (!inMysql.equals(inRedis)) {
            throw new IllegalStateException("Redis at " + redis.where() + " belongs to data set " + inRedis + " but MySQL at "
                    + db.where() + " is the record of data set " + inMysql + ": they are not a pair, refusing to start. "
                    + "Point both at the same system's servers");
        }
        return inMysql;
    }

    /**
     * A Redis database without this data set's id while another database of the same server holds it is a URI
     * naming the wrong database, not a Redis that lost its data: restoring there would start a second state
     * beside the real one. (A Redis that lost its data holds the id nowhere, and is restored as before.)
     *
     * @throws IllegalStateException naming both database numbers; nothing was written
     */
    private void refuseWrongDatabase(String dataset) {
        for (java.util.Map.Entry<Integer, String> other : marker.datasetIdsInOtherDatabases().entrySet()) {
            if (dataset.equals(other.getValue())) {
                throw new IllegalStateException("Redis at " + redis.where() + " database " + redis.database() + " holds no data set, "
                        + "but database " + other.getKey() + " of the same server holds data set " + dataset + ", whose durable "
                        + "record is MySQL at " + db.where() + ": the Redis URI names the wrong database. Point it at database "
                        + other.getKey() + " (redis://" + redis.where() + "/" + other.getKey() + "); nothing was written");
            }
        }
    }

    /**
     * Settles the bucket count this process works with, before any service is built, and sets it in
     * {@link RedisKeys#useBuckets}: the count recorded for the data set (MySQL's, else Redis'), or for a
     * data set not yet recorded, the one asked for, else 64 on a Redis Cluster and 16 on one server. It
     * is recorded with the pairing ({@link #verifyPairing}).
     *
     * @param requested the count asked for ({@code --buckets}), or null to take the recorded or default one
     * @return the bucket count
     * @throws IllegalArgumentException when {@code requested} is out of range, or differs from the count the
     *     data set was initialised with (nothing is changed)
     * @throws IllegalStateException when Redis and MySQL record different counts
     */
    public int settleBuckets(Integer requested) {
        if (requested != null) {
            RedisKeys.requireValid(requested);
        }
        Integer inMysql = db.read(t -> t.dataset().buckets());
        Integer inRedis = marker.bucketCount();
        if (inMysql != null && inRedis != null && !inMysql.equals(inRedis)) {
            throw new IllegalStateException("Redis at " + redis.where() + " records " + inRedis + " buckets but MySQL at "
                    + db.where() + " records " + inMysql + " for the data set: they are not one system's pair, refusing to "
                    + "start. Point both at the same system's servers");
        }
        Integer recorded = inMysql != null ? inMysql : inRedis;
        if (recorded != null && requested != null && !requested.equals(recorded)) {
            throw new IllegalArgumentException("--buckets " + requested + " was given, but the data set on Redis at "
                    + redis.where() + " and MySQL at " + db.where() + " was initialised with " + recorded + " buckets, "
                    + "and the count cannot change (it decides which Redis key holds every order): start without "
                    + "--buckets, or with --buckets " + recorded);
        }
        int count = recorded != null ? recorded
                : requested != null ? requested
                : redis.isCluster() ? RedisKeys.DEFAULT_CLUSTER_BUCKETS : RedisKeys.DEFAULT_BUCKETS;
        RedisKeys.requireValid(count);
        buckets = count;
        RedisKeys.useBuckets(count);
        return count;
    }

    /** @return the bucket count this process works with (settled at start) */
    public int buckets() {
        return buckets;
    }
}
