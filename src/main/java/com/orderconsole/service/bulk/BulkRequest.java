package com.orderconsole.service.bulk;

import com.orderconsole.domain.ControlChars;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Access;

/**
 * What a bulk move needs before anything is written (role, reason, target), checked the same wherever the move runs: in
 * this process ({@link BulkService#check}) or behind serve, whose console checks it before asking for a confirmation.
 */
public final class BulkRequest {
    private static final Access ACCESS = new Access();

    private BulkRequest() {
    }

    /**
     * @param operator who would move the orders
     * @param preview what would move
     * @param reason the batch's reason as typed
     * @return the stripped reason
     * @throws com.orderconsole.domain.PermissionDeniedException below support, or an override below admin
     * @throws IllegalArgumentException for an empty, too long or control-character reason, or an override to WAIT_PAY
     */
    public static String check(Operator operator, BulkPreview preview, String reason) {
        ACCESS.require(operator, Role.SUPPORT, "run a bulk transition");
        if (preview.override()) {
            ACCESS.require(operator, Role.ADMIN, "override the transition rules in bulk");
            if (preview.target() == OrderStatus.WAIT_PAY) {
                throw new IllegalArgumentException("an override cannot move orders back to WAIT_PAY (they have no payment deadline any more)");
            }
        }
        String r = reason == null ? "" : reason.strip();
        if (r.isEmpty()) {
            throw new IllegalArgumentException("a bulk transition needs a reason: it is written to every order's history");
        }
        int length = com.orderconsole.domain.TransitionRequest.reasonLength(r);
        if (length > BulkService.MAX_REASON) {
            throw new IllegalArgumentException("reason is " + length + " characters long (at most " + BulkService.MAX_REASON + " in bulk)");
        }
        if (ControlChars.in(r)) {
            throw new IllegalArgumentException("reason contains a control character (newline, tab or escape); use plain text");
        }
        return r;
    }

    /**
     * @throws IllegalArgumentException when the preview would move no order: running it would only write rejections
     */
    public static void requireSomethingToMove(BulkPreview preview) {
        if (preview.wouldApply() == 0) {
            throw new IllegalArgumentException(preview.matched() + " orders matched and none would move to " + preview.target()
                    + ": nothing to do");
        }
    }
}
