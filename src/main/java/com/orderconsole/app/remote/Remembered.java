package com.orderconsole.app.remote;

import java.util.ArrayList;
import java.util.List;

/**
 * What serve named a result this console holds (a preview's id, a reconciliation's id), for the next call about that same
 * object: by identity, the last {@link #KEPT}, as serve keeps its last ones in memory too.
 *
 * @param <T> the result held by the page
 */
final class Remembered<T> {
    static final int KEPT = 20;

    private record Entry<T>(T held, String id) {
    }

    private final List<Entry<T>> entries = new ArrayList<>();

    synchronized void put(T held, String id) {
        entries.add(new Entry<>(held, id));
        while (entries.size() > KEPT) {
            entries.remove(0);
        }
    }

    /** @return serve's id of this very object, or null when this console did not get it from serve (or forgot it) */
    synchronized String id(T held) {
        for (Entry<T> e : entries) {
            if (e.held() == held) {
                return e.id();
            }
        }
        return null;
    }
}
