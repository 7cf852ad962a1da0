package com.orderconsole.service;

import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RulesStore;
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
 */
public final class DataSetIdentity {
    private static final Logger log = LoggerFactory.getLogger(DataSetIdentity.class);

    private final RedisConnection redis;
    private final RulesStore marker;
    private final Database db;

    /** Built by {@link Services}. */
    public DataSetIdentity(RedisConnection redis, RulesStore marker, Database db) {
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
        if (!mayRecord && (inMysql == null || inRedis == null)) {
            return inMysql == null ? null : inMysql;
        }
        if (inMysql == null) {
            String fresh = UUID.randomUUID().toString();
            inMysql = db.inTransaction(t -> t.dataset().claim(fresh, System.currentTimeMillis()));
            log.info("recorded data set {} in MySQL at {}", inMysql, db.where());
        }
        if (inRedis == null) {
            inRedis = marker.claimDatasetId(inMysql);
        }
        if (!inMysql.equals(inRedis)) {
            throw new IllegalStateException("Redis at " + redis.where() + " belongs to data set " + inRedis + " but MySQL at "
                    + db.where() + " is the record of data set " + inMysql + ": they are not a pair, refusing to start. "
                    + "Point both at the same system's servers");
        }
        return inMysql;
    }
}
