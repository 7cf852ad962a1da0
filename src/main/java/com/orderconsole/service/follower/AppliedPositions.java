package com.orderconsole.service.follower;

import com.orderconsole.store.CursorStore;

import java.util.List;

/**
 * How far MySQL has applied each bucket's outbox, as read from its sync cursors at one moment
 * ({@link Follower#appliedPositions()}); opaque to callers, who hand it back to {@link Follower#status(AppliedPositions)}.
 *
 * @param cursors each bucket's cursor, by bucket number
 */
public record AppliedPositions(List<CursorStore.Cursor> cursors) {
    public AppliedPositions {
        cursors = List.copyOf(cursors);
    }
}
