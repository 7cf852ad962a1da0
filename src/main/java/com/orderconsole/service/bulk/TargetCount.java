package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderStatus;

/**
 * What a bulk move to one target would do, by the rules in force at the preview.
 *
 * @param target the target status
 * @param wouldApply orders the rules allow to move there
 * @param wouldReject orders that would be rejected (not a legal move, terminal, already there)
 */
public record TargetCount(OrderStatus target, int wouldApply, int wouldReject) {
}
