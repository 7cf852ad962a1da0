package com.orderconsole.service.audit;

import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.ResultCode;

/**
 * A filter of the audit view. Null (or empty) fields do not filter.
 *
 * @param actor exactly this person (as recorded, e.g. "alice"), at most 128 characters
 * @param source exactly this source: console, cli, sweeper, import, simulator, bulk, repair...; at most 32 characters
 * @param moveKind legal moves or overrides only; {@link MoveKind#ANY} keeps everything (including audit-log actions)
 * @param code only transitions with this result code (audit-log actions have none and are left out)
 * @param fromMs at or after, epoch ms
 * @param toMs before, epoch ms
 * @param idPrefix order id prefix
 */
public record AuditFilter(String actor, String source, MoveKind moveKind, ResultCode code, Long fromMs, Long toMs, String idPrefix) {
    public AuditFilter {
        actor = blankToNull(actor);
        source = blankToNull(source);
        idPrefix = blankToNull(idPrefix);
        moveKind = moveKind == null ? MoveKind.ANY : moveKind;
        if (actor != null && actor.length() > 128) {
            throw new IllegalArgumentException("actor is " + actor.length() + " characters long (at most 128)");
        }
        if (source != null && source.length() > 32) {
            throw new IllegalArgumentException("source is " + source.length() + " characters long (at most 32)");
        }
        if (idPrefix != null) {
            OrderId.requirePrefix(idPrefix);
        }
        if (fromMs != null && toMs != null && fromMs > toMs) {
            throw new IllegalArgumentException("the time range ends before it starts");
        }
    }

    /** @return no filter: everything, newest first */
    public static AuditFilter all() {
        return new AuditFilter(null, null, MoveKind.ANY, null, null, null, null);
    }

    /** @return true when audit-log actions (which are not transitions) can match */
    public boolean includesActions() {
        return moveKind == MoveKind.ANY && code == null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
