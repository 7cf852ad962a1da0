package com.orderconsole.domain;

/**
 * One line of an order's status history: an applied transition or a rejected attempt.
 *
 * @param orderId the order
 * @param from status before (null for the creation line)
 * @param to target status
 * @param version the order's version after the attempt
 * @param code the outcome
 * @param actor operator or job name
 * @param source where the request came from ("console", "sweeper", "import", ...)
 * @param reason free text
 * @param atMs when, epoch milliseconds (Redis server clock for live transitions)
 * @param eventKey unique key of the event ("b07/1700000000000-0" for outbox entries), makes replays idempotent
 */
public record HistoryEntry(String orderId, OrderStatus from, OrderStatus to, long version, ResultCode code, String actor,
                           String source, String reason, long atMs, String eventKey) {
}
