package com.orderconsole.service.bulk;

/** Progress of a bulk preview or apply, reported after every page (from a worker thread). */
@FunctionalInterface
public interface BulkProgress {
    /**
     * @param done orders read (preview) or handled (apply) so far
     * @param total orders expected; -1 while unknown (a filter's preview)
     * @param counts applied / rejected / conflicts / failed so far (all 0 during a preview)
     */
    void report(int done, int total, BulkCounts counts);

    /** Reports nothing. */
    BulkProgress NONE = (d, t, c) -> { };
}
