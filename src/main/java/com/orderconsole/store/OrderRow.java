package com.orderconsole.store;

/** One row of the {@code orders} table, as MyBatis maps it. Times are epoch milliseconds. */
public class OrderRow {
    public String orderId;
    public String customerId;
    public int status;
    public long version;
    public long createdAtMs;
    public long statusSinceMs;
    public Long expireAtMs;
    public boolean redisReady;

    public OrderRow() {
    }

    public OrderRow(String orderId, String customerId, int status, long version, long createdAtMs, long statusSinceMs,
                    Long expireAtMs, boolean redisReady) {
        this.orderId = orderId;
        this.customerId = customerId;
        this.status = status;
        this.version = version;
        this.createdAtMs = createdAtMs;
        this.statusSinceMs = statusSinceMs;
        this.expireAtMs = expireAtMs;
        this.redisReady = redisReady;
    }
}
