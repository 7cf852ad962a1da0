package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;

import java.util.List;
import java.util.Map;

/**
 * A read-only preview of a bulk transition: what matched, what each target would do by the rules in force,
 * a sample of ids, and the status and version seen of every matched order, which the apply step uses for
 * compare-and-set (an order that moved after the preview is reported as a conflict, never overwritten).
 *
 * <p>The seen states are held compactly (about 100 bytes per order; 10 MB at the 100,000 cap); the orders
 * themselves were read in keyset pages of 1,000.
 *
 * @param scope the orders chosen
 * @param target the target status
 * @param override true when the rules are not consulted (admin only)
 * @param rulesVersion the rules version the counts were computed with
 * @param matched orders found
 * @param wouldApply orders that would move to the target
 * @param wouldReject per result code, the orders that would be rejected (0, -2, -4)
 * @param perTarget for every status, would-apply and would-reject counts, so another target can be chosen
 * @param sample up to {@link BulkService#SAMPLE} ids that would move, then up to as many that would be rejected
 * @param unknownIds selected ids no store knows (a selection only); not part of the batch
 * @param readAtMs when the preview finished reading, epoch ms (Redis clock)
 * @param seen the status and version of each matched order as read
 */
public record BulkPreview(BulkScope scope, OrderStatus target, boolean override, long rulesVersion, int matched,
                          int wouldApply, Map<ResultCode, Integer> wouldReject, List<TargetCount> perTarget,
                          List<String> sample, List<String> unknownIds, long readAtMs, Seen seen) {

    /** @return orders that would be rejected, all codes */
    public int wouldRejectTotal() {
        return wouldReject.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The matched orders as the preview saw them, in columns: id, status code, version. */
    public static final class Seen {
        private final String[] ids;
        private final byte[] statuses;
        private final long[] versions;
        private final int size;

        Seen(String[] ids, byte[] statuses, long[] versions, int size) {
            this.ids = ids;
            this.statuses = statuses;
            this.versions = versions;
            this.size = size;
        }

        /** @return matched orders */
        public int size() {
            return size;
        }

        /** @return the i-th order's id */
        public String id(int i) {
            return ids[i];
        }

        /** @return the i-th order's status as seen */
        public OrderStatus status(int i) {
            return OrderStatus.ofCode(statuses[i]);
        }

        /** @return the i-th order's version as seen */
        public long version(int i) {
            return versions[i];
        }
    }
}
