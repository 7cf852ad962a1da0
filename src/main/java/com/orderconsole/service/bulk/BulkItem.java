package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;

/**
 * What a bulk transition did to one order.
 *
 * @param batchId the batch
 * @param orderId the order
 * @param seenStatus status the preview saw
 * @param seenVersion version the preview saw (the compare-and-set value)
 * @param outcome applied, rejected, conflict, failed, or not run (written when an abandoned batch is closed)
 * @param code the script's result code; null when the call got no answer or was not run
 * @param version the order's version after the call
 * @param atMs when, epoch ms (Redis clock; the batch's clock when the call failed)
 * @param error why a call failed, "" otherwise
 */
public record BulkItem(long batchId, String orderId, OrderStatus seenStatus, long seenVersion, Outcome outcome,
                      ResultCode code, long version, long atMs, String error) {

    /** How one order fared. NOT_RUN: the batch was abandoned before it moved this order (the error says how that is known). */
    public enum Outcome {
        APPLIED, REJECTED, CONFLICT, FAILED, NOT_RUN
    }
}
