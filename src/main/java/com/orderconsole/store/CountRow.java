package com.orderconsole.store;

/** A grouped count: {@code key} is a status code, {@code key2} a second status code where grouped by edge. */
public class CountRow {
    public int key;
    public Integer key2;
    public long n;
}
