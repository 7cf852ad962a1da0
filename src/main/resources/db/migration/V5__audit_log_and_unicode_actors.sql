-- Operator actions that are not status transitions (queue extend and remove, reconciliation repairs,
-- rules changes, dead-letter retries and discards): who, when, from where, why, and what changed.
-- Append-only like order_history: no code path updates or deletes it.
CREATE TABLE audit_log (
    id        BIGINT       NOT NULL AUTO_INCREMENT,
    at_ms     BIGINT       NOT NULL,
    actor     VARCHAR(128) CHARACTER SET utf8mb4 NOT NULL,
    source    VARCHAR(32)  CHARACTER SET utf8mb4 NOT NULL,
    action    VARCHAR(40)  CHARACTER SET ascii NOT NULL,
    order_id  VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NULL,
    reason    VARCHAR(500) CHARACTER SET utf8mb4 NOT NULL DEFAULT '',
    detail    VARCHAR(1000) CHARACTER SET utf8mb4 NOT NULL DEFAULT '',
    PRIMARY KEY (id),
    KEY idx_audit_order (order_id, id),
    KEY idx_audit_at (at_ms)
) ENGINE = InnoDB;

-- People's names keep every character (José, Zoë Ålund, 张伟, emoji); an ascii column stored '?'.
ALTER TABLE order_history
    MODIFY actor VARCHAR(128) CHARACTER SET utf8mb4 NOT NULL,
    MODIFY source VARCHAR(32) CHARACTER SET utf8mb4 NOT NULL;
ALTER TABLE transition_rules
    MODIFY set_by VARCHAR(128) CHARACTER SET utf8mb4 NOT NULL;
