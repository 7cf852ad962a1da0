package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * The first answer to each {@code Idempotency-Key} an API client sent with a POST, kept in MySQL so that a repeat sent
 * to any serve, after any restart, gets the same answer. One row per client and key: the SHA-256 of the request it came
 * with (method, path and body; the caller as the history names it, up to 64 characters), its state (0 running, 1 answered, 2 released: the first try failed in a way worth
 * retrying, and the key may be used again), and the answer's status and body. Rows are kept, never deleted (at least the
 * 24 h clients rely on). Only serve's account (the follower role) writes the table.
 */
public class V48__Idempotency_keys extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE api_idempotency ("
                    + " client         VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,"
                    + " idem_key       VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,"
                    + " request_sha256 CHAR(64) CHARACTER SET ascii NOT NULL,"
                    + " state          TINYINT NOT NULL,"
                    + " status         SMALLINT NULL,"
                    + " body           MEDIUMBLOB NULL,"
                    + " created_at_ms  BIGINT NOT NULL,"
                    + " answered_at_ms BIGINT NULL,"
                    + " PRIMARY KEY (client, idem_key)"
                    + ") ENGINE = InnoDB");
        }
        ConsoleRoles.createAndGrant(context.getConnection());
    }

    @Override
    public boolean canExecuteInTransaction() {
        return false;
    }
}
