package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderStatus;

import java.util.List;

/**
 * One disagreement.
 *
 * @param category what kind
 * @param orderId the order ("" for SYNC_PENDING, which is per bucket)
 * @param mysqlStatus MySQL status, null when absent
 * @param mysqlVersion MySQL version, 0 when absent
 * @param redisStatus Redis status, null when absent
 * @param redisVersion Redis version, 0 when absent
 * @param detail in English words, e.g. "Redis ahead by 1 version" (CSV export, --json, logs)
 * @param detailKey the kind of detail, so the console and the CLI can say it in the user's language (text key
 *     recon.detail.KIND); {@link FindingDetail#PLAIN} for a text that has none (its one value is {@code detail})
 * @param detailArgs the values the text names, in order
 */
public record ReconFinding(ReconCategory category, String orderId, OrderStatus mysqlStatus, long mysqlVersion,
                           OrderStatus redisStatus, long redisVersion, String detail, FindingDetail detailKey, List<Object> detailArgs) {
    public ReconFinding {
        detailArgs = List.copyOf(detailArgs);
    }

    /** A finding whose detail has no text key: shown as it is in every language. */
    public ReconFinding(ReconCategory category, String orderId, OrderStatus mysqlStatus, long mysqlVersion,
                        OrderStatus redisStatus, long redisVersion, String detail) {
        this(category, orderId, mysqlStatus, mysqlVersion, redisStatus, redisVersion, detail, FindingDetail.PLAIN, List.of(detail));
    }
}
