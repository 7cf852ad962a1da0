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
}
