package com.orderconsole.domain;

/**
 * What the transition script did.
 *
 * @param orderId the order
 * @param code the outcome
 * @param from status before the call, null when the state was missing
 * @param target the requested status
 * @param version the order's version after the call (unchanged when rejected; 0 when missing)
 * @param timeMs Redis server time of the call, epoch milliseconds
 */
public record TransitionResult(String orderId, ResultCode code, OrderStatus from, OrderStatus target, long version,
                               long timeMs) {
    /** @return true when the status was changed */
    public boolean applied() {
        return code.applied();
    }
}
