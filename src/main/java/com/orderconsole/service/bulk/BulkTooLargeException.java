package com.orderconsole.service.bulk;

/** The chosen orders exceed the batch size cap; nothing was changed. */
public final class BulkTooLargeException extends IllegalArgumentException {
    private final int cap;

    /** @param cap the most orders a batch may hold */
    public BulkTooLargeException(int cap) {
        super(String.format(java.util.Locale.ROOT, "the chosen orders are more than %,d, the most one batch may move: "
                + "narrow the filter (e.g. by creation date or id prefix) and run several batches", cap));
        this.cap = cap;
    }

    /** @return the cap that was exceeded */
    public int cap() {
        return cap;
    }
}
