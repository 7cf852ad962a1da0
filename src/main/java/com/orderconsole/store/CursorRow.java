package com.orderconsole.store;

/** A row of {@code sync_cursor} as MyBatis maps it. */
public class CursorRow {
    public String lastId;
    public String epoch;
}
