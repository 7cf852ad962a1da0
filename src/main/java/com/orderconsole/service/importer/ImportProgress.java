package com.orderconsole.service.importer;

/** Receives import progress; called from the importing thread after each batch of rows. */
@FunctionalInterface
public interface ImportProgress {
    /** Ignores progress. */
    ImportProgress NONE = (done, total) -> {
    };

    /**
     * @param done data rows processed so far
     * @param total data rows expected, or -1 when unknown (a reader of unknown length); the last
     *              call always has {@code done == total}
     */
    void update(long done, long total);
}
