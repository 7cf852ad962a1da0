package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * Bulk transitions: {@code bulk_batch}, one row per batch (who, when, which orders, target, reason,
 * counts, state), updated in place as the batch runs; {@code bulk_item}, one row per order handled,
 * append-only. Then grants the console roles on them ({@link ConsoleRoles}). Java rather than SQL so the
 * grants follow the tables in the same migration.
 */
public class V31__Bulk_batches extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE bulk_batch ("
                    + " id             BIGINT        NOT NULL AUTO_INCREMENT,"
                    + " actor          VARCHAR(128)  CHARACTER SET utf8mb4 NOT NULL,"
                    + " source         VARCHAR(32)   CHARACTER SET utf8mb4 NOT NULL,"
                    + " started_at_ms  BIGINT        NOT NULL,"
                    + " finished_at_ms BIGINT        NULL,"
                    // The orders chosen, in words: the filter, or 'selection of N orders'.
                    + " scope          VARCHAR(1000) CHARACTER SET utf8mb4 NOT NULL,"
                    + " target         TINYINT       NOT NULL,"
                    + " override_rules TINYINT       NOT NULL DEFAULT 0,"
                    + " reason         VARCHAR(500)  CHARACTER SET utf8mb4 NOT NULL,"
                    + " matched        INT           NOT NULL,"
                    + " applied        INT           NOT NULL DEFAULT 0,"
                    + " rejected       INT           NOT NULL DEFAULT 0,"
                    + " conflicts      INT           NOT NULL DEFAULT 0,"
                    + " failed         INT           NOT NULL DEFAULT 0,"
                    // RUNNING, DONE, CANCELLED, FAILED; a RUNNING batch whose process died stays RUNNING with its counts so far.
                    + " state          VARCHAR(12)   CHARACTER SET ascii NOT NULL,"
                    + " PRIMARY KEY (id),"
                    + " KEY idx_bulk_batch_started (started_at_ms)"
                    + ") ENGINE = InnoDB");
            st.execute("CREATE TABLE bulk_item ("
                    + " batch_id     BIGINT       NOT NULL,"
                    + " order_id     VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,"
                    + " seen_status  TINYINT      NOT NULL,"
                    + " seen_version BIGINT       NOT NULL,"
                    // APPLIED, REJECTED, CONFLICT, FAILED
                    + " outcome      VARCHAR(12)  CHARACTER SET ascii NOT NULL,"
                    + " result_code  TINYINT      NULL,"
                    + " version      BIGINT       NOT NULL,"
                    + " at_ms        BIGINT       NOT NULL,"
                    + " error        VARCHAR(300) CHARACTER SET utf8mb4 NOT NULL DEFAULT '',"
                    + " PRIMARY KEY (batch_id, order_id)"
                    + ") ENGINE = InnoDB");
        }
        ConsoleRoles.createAndGrant(context.getConnection());
    }

    @Override
    public boolean canExecuteInTransaction() {
        // CREATE TABLE and GRANT commit implicitly.
        return false;
    }
}
