package com.orderconsole.store;

/** The {@code dataset_identity} table: which data set this database is the durable record of, and its bucket count. */
public final class DatasetStore {
    private final DatasetMapper m;

    DatasetStore(DatasetMapper m) {
        this.m = m;
    }

    /** @return the data-set id, or null when this database never had one */
    public String get() {
        return m.get();
    }

    /** @return the bucket count the data set was initialised with, or null when this database never had a data set */
    public Integer buckets() {
        return m.buckets();
    }

    /**
     * Records the data-set id and its bucket count unless a data set is recorded already.
     *
     * @param atMs when, epoch ms
     * @param buckets the bucket count chosen for the data set
     * @return the id now recorded (this one, or the one another process recorded first)
     */
    public String claim(String datasetId, long atMs, int buckets) {
        m.claim(datasetId, atMs, buckets);
        return m.get();
    }

    /**
     * @return the marker ({@code osm:epoch}) of the Redis data set this database follows, as the last restore of Redis
     *     recorded it; null before one was recorded (a data set recorded before V46, or no data set)
     */
    public String redisMarker() {
        return m.redisMarker();
    }

    /**
     * Records the marker of the Redis data set this database follows from now on (a restore of Redis, before it sets
     * the marker in Redis; or the first process that finds none recorded).
     *
     * @return true when the data set's row was there to record it in
     */
    public boolean recordRedisMarker(String marker) {
        return m.recordRedisMarker(marker) > 0;
    }
}
