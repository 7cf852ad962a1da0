-- Which data set this database is the durable record of. The Redis it pairs with carries the same id
-- (key osm:dataset); an engine refuses to pair a Redis and a MySQL whose ids differ.
CREATE TABLE dataset_identity (
    id            TINYINT      NOT NULL,
    dataset_id    VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at_ms BIGINT       NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB;

-- Records that could not be processed, set aside so that everything else goes on: outbox entries the
-- follower cannot read, and order hashes in Redis whose fields are not well-formed.
CREATE TABLE dead_letter (
    id             BIGINT       NOT NULL AUTO_INCREMENT,
    kind           VARCHAR(20)  CHARACTER SET ascii NOT NULL,
    order_id       VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NULL,
    bucket         INT          NULL,
    entry_id       VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NULL,
    reason         VARCHAR(500) CHARACTER SET utf8mb4 NOT NULL,
    body           TEXT         CHARACTER SET utf8mb4 NOT NULL,
    created_at_ms  BIGINT       NOT NULL,
    state          VARCHAR(12)  CHARACTER SET ascii NOT NULL DEFAULT 'OPEN',
    resolved_by    VARCHAR(128) CHARACTER SET utf8mb4 NULL,
    resolved_at_ms BIGINT       NULL,
    resolution     VARCHAR(500) CHARACTER SET utf8mb4 NULL,
    -- An outbox entry is set aside once however often it is read; an order record once while open.
    open_key       VARCHAR(160) CHARACTER SET ascii COLLATE ascii_bin NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_dead_letter_open (open_key),
    KEY idx_dead_letter_state (state, id)
) ENGINE = InnoDB;

-- The follower's cursor is a position in one Redis data set's stream: stream ids of another data set
-- (after Redis came back empty or from an old snapshot) are not comparable with it.
-- seq is the bucket's outbox sequence number of the last entry applied: a Redis restored from an older
-- copy hands out numbers at or below it again.
ALTER TABLE sync_cursor
    ADD COLUMN epoch VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
    ADD COLUMN seq BIGINT NULL;

-- An order has at most one applied transition per version, whatever event key it arrives under (a
-- replay after a Redis data-set change carries new keys): the database refuses a second one.
ALTER TABLE order_history
    ADD COLUMN applied_version BIGINT AS (IF(result_code = 1, version, NULL)) STORED,
    ADD UNIQUE KEY uk_history_applied_version (order_id, applied_version);
