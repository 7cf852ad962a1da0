package com.orderconsole.service.recon;

/** Progress of a reconciliation or repair run. */
@FunctionalInterface
public interface ReconProgress {
    /**
     * @param phase what is being compared now, in words
     * @param done items processed so far
     * @param total items expected in all (an estimate; may be exceeded slightly)
     */
    void update(String phase, long done, long total);

    /** A listener that ignores progress. */
    ReconProgress NONE = (p, d, t) -> { };
}
