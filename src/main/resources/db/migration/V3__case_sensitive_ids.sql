-- Order ids are case-sensitive in Redis; MySQL must not merge 'A-1' and 'a-1' into one order.
ALTER TABLE orders
    MODIFY order_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    MODIFY customer_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL;
ALTER TABLE order_history
    MODIFY order_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    MODIFY event_key VARCHAR(80) CHARACTER SET ascii COLLATE ascii_bin NOT NULL;
