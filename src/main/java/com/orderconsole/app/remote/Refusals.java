package com.orderconsole.app.remote;

import com.orderconsole.app.NotConfirmedException;
import com.orderconsole.domain.PermissionDeniedException;

/**
 * Serve's refusals as the exceptions the in-process services throw for the same refusal, so a page or command says and
 * does the same in both modes: bad input {@link IllegalArgumentException}, beyond the role {@link PermissionDeniedException},
 * a production change not confirmed {@link NotConfirmedException}, a state that does not allow it now
 * {@link IllegalStateException}; each with serve's words.
 */
final class Refusals {
    private Refusals() {
    }

    /**
     * @param r serve's refusal
     * @return the in-process exception of its kind; an unknown thing (404) as {@link IllegalArgumentException}, which is what
     *     the services throw for an unknown batch, letter or entry; any other kind as the refusal itself
     */
    static RuntimeException of(ApiRefusal r) {
        return CoreRecords.refusal(r, null);
    }
}
