package com.orderconsole.store;

/** The {@code dataset_identity} table: which data set this database is the durable record of. */
public final class DatasetStore {
    private final DatasetMapper m;

    DatasetStore(DatasetMapper m) {
        this.m = m;
    }

    /** @return the data-set id, or null when this database never had one */
    public String get() {
        return m.get();
    }

    /**
     * Records the data-set id unless one is recorded already.
     *
     * @param atMs when, epoch ms
     * @return the id now recorded (this one, or the one another process recorded first)
     */
    public String claim(String datasetId, long atMs) {
        m.claim(datasetId, atMs);
        return m.get();
    }
}
