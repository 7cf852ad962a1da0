package com.orderconsole.store;

/** One row of the append-only {@code order_history} table. Times are epoch milliseconds. */
public class HistoryRow {
    public long id;
    public String orderId;
    public Integer fromStatus;
    public int toStatus;
    public long version;
    public int resultCode;
    public String actor;
    public String source;
    public String reason;
    public long atMs;
    public String eventKey;
}
