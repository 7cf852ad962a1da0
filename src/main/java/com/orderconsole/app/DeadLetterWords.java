package com.orderconsole.app;

import java.util.MissingResourceException;

/** What a dead letter's kind means, in the process' language; shared by the console's dead letters and the CLI's. */
public final class DeadLetterWords {
    private DeadLetterWords() {
    }

    /**
     * @param kind a dead letter's kind as stored, e.g. {@code UNKNOWN_ORDER} (see {@code store.DeadLetterRow})
     * @return its meaning in a few words, e.g. "unknown order"; a kind this release does not know (written by
     *     a newer one) as it is stored
     */
    public static String kind(String kind) {
        if (kind == null) {
            return "";
        }
        try {
            return Messages.get("deadletter.kind." + kind);
        } catch (MissingResourceException e) {
            return kind;
        }
    }
}
