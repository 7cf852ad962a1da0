package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderStatus;

/**
 * One disagreement.
 *
 * @param category what kind
 * @param orderId the order ("" for SYNC_PENDING, which is per bucket)
 * @param mysqlStatus MySQL status, null when absent
 * @param mysqlVersion MySQL version, 0 when absent
 * @param redisStatus Redis status, null when absent
 * @param redisVersion Redis version, 0 when absent
 * @param detail in words, e.g. "Redis ahead by 1 version"
 */
public record ReconFinding(ReconCategory category, String orderId, OrderStatus mysqlStatus, long mysqlVersion,
                           OrderStatus redisStatus, long redisVersion, String detail) {
}
