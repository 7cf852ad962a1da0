package com.orderconsole.redis;

import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis data set's own keys, in one place: the marker whose absence means Redis lost its data ({@code osm:epoch}),
 * the fence set while a data set found behind MySQL waits for its restore ({@code osm:fenced}), the claim of the one
 * restore running ({@code osm:recovering}), the system the data set belongs to ({@code osm:dataset}) and its bucket
 * count ({@code osm:buckets}); and whether some buckets lost their keys while the marker survived.
 */
public final class DataSetStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    DataSetStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /** @return the data-set marker, or null when Redis lost (or never had) it */
    public String epoch() {
        return redis.await(async.get(RedisKeys.EPOCH), "GET " + RedisKeys.EPOCH);
    }

    /** Sets the data-set marker unless one exists. @return true when this call set it */
    public boolean setEpochIfAbsent(String marker) {
        return redis.await(async.setnx(RedisKeys.EPOCH, marker), "SETNX " + RedisKeys.EPOCH);
    }

    /**
     * Removes the data-set marker when it still is {@code expected}, so that maintenance treats the
     * data set as lost and recovers it (used when Redis is found restored from an old snapshot).
     */
    public void forgetEpoch(String expected) {
        forgetEpoch(expected, "Redis went back in time");
    }

    /**
     * {@link #forgetEpoch(String)}, first fencing the data set ({@link RedisKeys#FENCED}) so that no transition runs on
     * its stale states until the restore is done.
     *
     * @param why what was found, in words (kept in the fence key for a person reading Redis)
     */
    public void forgetEpoch(String expected, String why) {
        if (expected.equals(epoch())) {
            redis.await(async.set(RedisKeys.FENCED, why), "SET " + RedisKeys.FENCED);
            redis.await(async.del(RedisKeys.EPOCH), "DEL " + RedisKeys.EPOCH);
        }
    }

    /** @return why the data set is fenced (being restored after it was found behind MySQL), or null */
    public String fenced() {
        return redis.await(async.get(RedisKeys.FENCED), "GET " + RedisKeys.FENCED);
    }

    /**
     * Claims the restore of a lost data set: only one process restores it; the claim expires when that
     * process dies, so another one takes over.
     *
     * @param marker the data-set marker the restore will set when done
     * @param ttlMs how long the claim holds, ms
     * @return true when this call claimed it
     */
    public boolean claimRecovery(String marker, long ttlMs) {
        return "OK".equals(redis.await(async.set(RedisKeys.RECOVERING, marker,
                SetArgs.Builder.nx().px(ttlMs)), "SET " + RedisKeys.RECOVERING));
    }

    /** @return the marker of a restore in progress, or null */
    public String recovering() {
        return redis.await(async.get(RedisKeys.RECOVERING), "GET " + RedisKeys.RECOVERING);
    }

    /** Gives a restore claim back (the restore failed half-way), when it still is {@code marker}. */
    public void releaseRecovery(String marker) {
        if (marker.equals(recovering())) {
            redis.await(async.del(RedisKeys.RECOVERING), "DEL " + RedisKeys.RECOVERING);
        }
    }

    /** Ends a restore: sets the data-set marker, lifts the fence and drops the claim. */
    public void finishRecovery(String marker) {
        redis.await(async.set(RedisKeys.EPOCH, marker), "SET " + RedisKeys.EPOCH);
        redis.await(async.del(RedisKeys.FENCED), "DEL " + RedisKeys.FENCED);
        redis.await(async.del(RedisKeys.RECOVERING), "DEL " + RedisKeys.RECOVERING);
    }

    /** @return the data set this Redis belongs to, or null when it was never paired (or lost its data) */
    public String datasetId() {
        return redis.await(async.get(RedisKeys.DATASET), "GET " + RedisKeys.DATASET);
    }

    /**
     * @return database number to the data-set id it holds, for the other databases of this Redis server (empty on a
     *     cluster): where a data set lives when the URI names another database
     */
    public Map<Integer, String> datasetIdsInOtherDatabases() {
        return redis.valueInOtherDatabases(RedisKeys.DATASET);
    }

    /**
     * Records the data set this Redis belongs to, unless one is recorded.
     *
     * @return the id now recorded (this one, or the one set first by another process)
     */
    public String claimDatasetId(String datasetId) {
        redis.await(async.setnx(RedisKeys.DATASET, datasetId), "SETNX " + RedisKeys.DATASET);
        return datasetId();
    }

    /**
     * @return the bucket count recorded for this Redis data set ({@code osm:buckets}), or null when none
     *     is recorded (a data set made before the count was recorded, or a Redis that lost its data)
     * @throws IllegalStateException when the recorded value is not a whole number
     */
    public Integer bucketCount() {
        String v = redis.await(async.get(RedisKeys.BUCKET_COUNT), "GET " + RedisKeys.BUCKET_COUNT);
        if (v == null) {
            return null;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Redis key " + RedisKeys.BUCKET_COUNT + " holds '" + v
                    + "', not a bucket count: set it to the count MySQL records (dataset_identity.buckets)");
        }
    }

    /**
     * Records the bucket count of this Redis data set unless one is recorded.
     *
     * @return the count now recorded (this one, or the one set first by another process)
     */
    public int claimBucketCount(int buckets) {
        redis.await(async.setnx(RedisKeys.BUCKET_COUNT, Integer.toString(buckets)), "SETNX " + RedisKeys.BUCKET_COUNT);
        return bucketCount();
    }

    /**
     * Buckets whose keys a Redis lost while the data-set marker survived: a cluster master restarted empty
     * (each master holds only its slots' keys). Such a bucket has neither its rules copy, which every
     * bucket has once the rules are published, nor its counters, which it has once it held an order; one
     * of them alone missing is not a loss (a bucket never used, a copy being republished).
     *
     * @return the buckets, ascending; empty when none
     */
    public List<Integer> bucketsLost() {
        List<CompletableFuture<Long>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            fs.add(async.exists(RedisKeys.rules(b)).toCompletableFuture());
            fs.add(async.exists(RedisKeys.stats(b)).toCompletableFuture());
        }
        List<Integer> out = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            long present = redis.await(fs.get(2 * b), "EXISTS rules") + redis.await(fs.get(2 * b + 1), "EXISTS stats");
            if (present == 0) {
                out.add(b);
            }
        }
        return out;
    }
}
