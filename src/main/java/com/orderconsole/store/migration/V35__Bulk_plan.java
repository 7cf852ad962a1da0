package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * {@code bulk_plan}: every order a bulk batch set out to move, in the order it moves them, with the status and
 * version the preview saw, written with the batch before its first move. Append-only. Without it the orders of a
 * batch whose process died were known only to that process; with it, closing an abandoned batch accounts for
 * every one (moved, in the chunk in flight, never attempted). Then grants the console roles on it.
 */
public class V35__Bulk_plan extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE bulk_plan ("
                    + " batch_id     BIGINT       NOT NULL,"
                    // 0-based position in the batch: chunks of BulkService.CHUNK run in this order.
                    + " seq          INT          NOT NULL,"
                    + " order_id     VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,"
                    + " seen_status  TINYINT      NOT NULL,"
                    + " seen_version BIGINT       NOT NULL,"
                    + " PRIMARY KEY (batch_id, seq)"
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
