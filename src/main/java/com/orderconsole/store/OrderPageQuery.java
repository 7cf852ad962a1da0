package com.orderconsole.store;

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
