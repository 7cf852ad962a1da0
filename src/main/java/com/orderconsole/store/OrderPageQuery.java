package com.orderconsole.store;

import com.orderconsole.domain.OrderStatus;

import java.util.Arrays;
import java.util.List;

/**
 * Filter and keyset position for one page of orders.
 *
 * <p>Sorting is by (status_since_ms, order_id) when {@code byAge}, else by order_id. The page starts
 * strictly after (afterSince, afterId); null afterId means the first page.
 */
public class OrderPageQuery {
    public String exactId;
    public String idPrefix;
    public List<Integer> statuses;
    /** Only orders whose status started before this (epoch ms), for "stuck" filters; per status via stuckBefore. */
    public List<StuckBound> stuckBounds;
    public Long createdFromMs;
    public Long createdToMs;
    public boolean byAge;
    public String afterId;
    public Long afterSince;
    public int limit = 100;

    /**
     * What a page sorted by age reads, one keyset range per status: the stuck bounds when there are any (they name
     * their statuses), else the statuses asked for, else every status.
     */
    public List<AgePart> getAgeParts() {
        if (stuckBounds != null && !stuckBounds.isEmpty()) {
            return stuckBounds.stream().map(b -> new AgePart(b.status, b.beforeMs)).toList();
        }
        List<Integer> codes = statuses == null || statuses.isEmpty()
                ? Arrays.stream(OrderStatus.values()).map(OrderStatus::code).toList() : statuses;
        return codes.stream().map(c -> new AgePart(c, null)).toList();
    }

    /** One status of a page sorted by age, with the latest status_since_ms (epoch ms) it may have, or null for any. */
    public static class AgePart {
        public final int status;
        public final Long beforeMs;

        AgePart(int status, Long beforeMs) {
            this.status = status;
            this.beforeMs = beforeMs;
        }
    }

    /** Status code with the latest status_since_ms that counts as stuck. */
    public static class StuckBound {
        public int status;
        public long beforeMs;

        public StuckBound(int status, long beforeMs) {
            this.status = status;
            this.beforeMs = beforeMs;
        }
    }
}
