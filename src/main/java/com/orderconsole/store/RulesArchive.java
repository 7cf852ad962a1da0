package com.orderconsole.store;

/** The {@code transition_rules} archive: every rules version ever set, so rules survive a Redis data loss. */
public final class RulesArchive {
    private final RulesArchiveMapper m;

    RulesArchive(RulesArchiveMapper m) {
        this.m = m;
    }

    /**
     * Records a version; a version recorded already is left as it is.
     *
     * @param atMs when, epoch ms
     * @return true when recorded now, false when the archive had it
     */
    public boolean record(long version, String json, String setBy, long atMs) {
        return m.record(version, json, setBy, atMs) == 1;
    }

    /** @return the JSON of the newest version, or null when none was ever recorded */
    public String latest() {
        return m.latest();
    }

    /**
     * @return the JSON of every version that may have been in force at some time from {@code fromMs} to {@code toMs}
     *     (the one in force at {@code fromMs} and those set up to {@code toMs}), oldest first
     */
    public java.util.List<String> inForceBetween(long fromMs, long toMs) {
        return m.inForceBetween(fromMs, toMs);
    }
}
