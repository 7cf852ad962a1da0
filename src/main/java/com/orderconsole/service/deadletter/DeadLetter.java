package com.orderconsole.service.deadletter;

/**
 * A record set aside because it could not be processed.
 *
 * @param id the letter's number
 * @param kind OUTBOX_ENTRY (the follower cannot read it), HISTORY_CONFLICT (its version is another status
 *     in MySQL's history), UNKNOWN_ORDER (an outbox entry for an order neither MySQL nor Redis has) or
 *     ORDER_RECORD (an order hash in Redis that is not well-formed)
 * @param orderId the order, or null when not even that could be read
 * @param bucket the order's bucket, or null
 * @param entryId the outbox stream id for outbox letters, else null
 * @param reason what is wrong, in words
 * @param body the record as it was found, for a person
 * @param createdAtMs when it was set aside, epoch ms
 * @param state OPEN, RETRIED or DISCARDED
 * @param resolvedBy who closed it, or null while open
 * @param resolution what closing it did, in words, or null while open
 */
public record DeadLetter(long id, String kind, String orderId, Integer bucket, String entryId, String reason, String body,
                         long createdAtMs, String state, String resolvedBy, String resolution) {
}
