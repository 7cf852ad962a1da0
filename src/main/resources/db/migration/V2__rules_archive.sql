-- Every rules version ever set, so the rules survive a Redis that lost its data.
CREATE TABLE transition_rules (
    version    BIGINT       NOT NULL,
    rules_json TEXT         NOT NULL,
    set_by     VARCHAR(64)  NOT NULL,
    set_at_ms  BIGINT       NOT NULL,
    PRIMARY KEY (version)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
