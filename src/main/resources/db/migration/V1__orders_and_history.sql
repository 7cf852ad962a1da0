-- Durable record of orders. Times are epoch milliseconds (Redis server clock), like the Redis state.
CREATE TABLE orders (
    order_id        VARCHAR(64)  NOT NULL,
    customer_id     VARCHAR(64)  NULL,
    status          TINYINT      NOT NULL,
    version         BIGINT       NOT NULL,
    created_at_ms   BIGINT       NOT NULL,
    status_since_ms BIGINT       NOT NULL,
    expire_at_ms    BIGINT       NULL,
    -- Creation outbox: 0 until the order's Redis state exists; a background pass finishes the job.
    redis_ready     TINYINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (order_id),
    KEY idx_orders_status_since (status, status_since_ms, order_id),
    KEY idx_orders_since (status_since_ms, order_id),
    KEY idx_orders_created (created_at_ms, order_id),
    KEY idx_orders_redis_ready (redis_ready)
) ENGINE = InnoDB DEFAULT CHARSET = ascii;

-- Append-only: every applied transition and every rejected attempt. No code path updates or deletes it.
CREATE TABLE order_history (
    id          BIGINT       NOT NULL AUTO_INCREMENT,
    order_id    VARCHAR(64)  NOT NULL,
    from_status TINYINT      NULL,
    to_status   TINYINT      NOT NULL,
    version     BIGINT       NOT NULL,
    result_code TINYINT      NOT NULL,
    actor       VARCHAR(64)  NOT NULL,
    source      VARCHAR(32)  NOT NULL,
    reason      VARCHAR(500) CHARACTER SET utf8mb4 NOT NULL DEFAULT '',
    at_ms       BIGINT       NOT NULL,
    -- Outbox entry id (bucket/stream id) or import key: a replayed event inserts nothing.
    event_key   VARCHAR(80)  NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_history_event (event_key),
    KEY idx_history_order (order_id, id),
    KEY idx_history_at (at_ms)
) ENGINE = InnoDB DEFAULT CHARSET = ascii;

-- How far the MySQL follower has applied each bucket's outbox stream; moved in the same
-- transaction as the rows it covers.
CREATE TABLE sync_cursor (
    bucket        INT          NOT NULL,
    last_id       VARCHAR(40)  NOT NULL,
    updated_at_ms BIGINT       NOT NULL,
    PRIMARY KEY (bucket)
) ENGINE = InnoDB DEFAULT CHARSET = ascii;
