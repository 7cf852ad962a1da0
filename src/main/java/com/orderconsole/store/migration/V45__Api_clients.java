package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * One credential per calling service. {@code api_client} holds each client of the HTTP API of {@code serve}: its
 * name (it acts as {@code api:<name>}), its role (support or ops), the SHA-256 of its bearer token (the token itself is
 * shown once and stored nowhere), when it was added and, once revoked, when. Rows are never deleted: an outbox entry
 * that serve accepted from a client before its revocation still names a known actor.
 *
 * <p>On a server that checks accounts (as V39) nobody writes the table directly: an admin adds and revokes clients through
 * {@code order_console_api_client_add} / {@code _revoke}, which also append the audit row, stamped with the admin's login;
 * {@code serve} (the follower's account) creates an API client's orders through {@code order_console_api_create_order},
 * which checks that the client is registered and not revoked and writes the creation history row in the client's name.
 * Ids are compared byte-exact on the primary key: the parameters carry the id column's charset and collation.
 */
public class V45__Api_clients extends BaseJavaMigration {
    // The caller's login, the database's clock and the procedures' security: one definition, V39's, for every procedure.
    private static final String LOGIN = V39__Stamped_writes.LOGIN;
    private static final String NOW_MS = V39__Stamped_writes.NOW_MS;
    private static final String DEFINER = V39__Stamped_writes.DEFINER;
    /** The orders table's id column (V1 ascii, V3 case-sensitive): parameters compared to it use the same. */
    private static final String ID = "VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin";
    private static final String NAME = "VARCHAR(48) CHARACTER SET ascii COLLATE ascii_bin";

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE api_client ("
                    + " name          " + NAME + " NOT NULL,"
                    + " role          VARCHAR(16) CHARACTER SET ascii NOT NULL,"
                    + " token_sha256  CHAR(64) CHARACTER SET ascii NOT NULL,"
                    + " added_at_ms   BIGINT NOT NULL,"
                    + " added_by      VARCHAR(80) CHARACTER SET utf8mb4 NOT NULL,"
                    + " revoked_at_ms BIGINT NULL,"
                    + " PRIMARY KEY (name),"
                    + " UNIQUE KEY uk_api_client_token (token_sha256)"
                    + ") ENGINE = InnoDB");
        }
        if (!ConsoleRoles.createAndGrant(context.getConnection())) {
            return; // no grant tables: one owner writes directly
        }
        try (Statement st = context.getConnection().createStatement()) {
            createRoutines(st);
            ConsoleRoles.grantProcedures(context.getConnection());
        }
    }

    /**
     * Makes the API's procedures (anew: each is dropped first) under the account running it, their definer; also run by
     * {@link RemakeRoutines} after every {@code migrate}, so losing the account that made them is recoverable.
     */
    static void createRoutines(Statement st) throws java.sql.SQLException {
        for (String p : new String[]{"order_console_api_client_add", "order_console_api_client_revoke", "order_console_api_create_order"}) {
            st.execute("DROP PROCEDURE IF EXISTS " + p);
        }
        st.execute("CREATE PROCEDURE order_console_api_client_add(IN p_name " + NAME + ", IN p_role VARCHAR(16), "
                + "IN p_token_sha256 CHAR(64))" + DEFINER
                + "BEGIN "
                + "IF p_role NOT IN ('support', 'ops') THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'an API client is support or ops'; END IF; "
                + "INSERT INTO api_client (name, role, token_sha256, added_at_ms, added_by) VALUES (p_name, p_role, p_token_sha256, "
                + NOW_MS + ", " + LOGIN + "); "
                + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                + LOGIN + ", 'cli', 'API_CLIENT_ADD', NULL, '', CONCAT('api client ', p_name, ' added as ', p_role)); "
                + "END");
        st.execute("CREATE PROCEDURE order_console_api_client_revoke(IN p_name " + NAME + ")" + DEFINER
                + "BEGIN "
                + "UPDATE api_client SET revoked_at_ms = " + NOW_MS + " WHERE name = p_name AND revoked_at_ms IS NULL; "
                + "IF ROW_COUNT() = 1 THEN "
                + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                + LOGIN + ", 'cli', 'API_CLIENT_REVOKE', NULL, '', CONCAT('api client ', p_name, ' revoked')); "
                + "END IF; "
                + "END");
        // One WAIT_PAY order at version 1 and its one creation row, in the name of a registered, unrevoked client. The
        // checks read with SELECT … INTO, a plain read: a subquery in IF or SET of a routine that writes is a locking read,
        // and on an absent id it locked the gap where the id goes, so two creations side by side deadlocked inserting
        // into each other's gap. An order created meanwhile by another transaction fails the insert on the unique keys.
        st.execute("CREATE PROCEDURE order_console_api_create_order(IN p_client " + NAME + ", IN p_order_id " + ID + ", "
                + "IN p_customer_id " + ID + ", IN p_created_at_ms BIGINT, IN p_expire_at_ms BIGINT, IN p_event_key VARCHAR(80))"
                + DEFINER
                + "BEGIN DECLARE client_in_force INT DEFAULT 0; DECLARE there INT DEFAULT 0; "
                + "SELECT COUNT(*) INTO client_in_force FROM api_client WHERE name = p_client AND revoked_at_ms IS NULL; "
                + "IF client_in_force = 0 THEN "
                + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no such API client, or it was revoked'; END IF; "
                + V40__Role_checked_procedures.apiCreationChecks()
                + "SELECT COUNT(*) INTO there FROM orders WHERE order_id = p_order_id; "
                + "IF there = 0 THEN "
                + "INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, "
                + "event_key) VALUES (p_order_id, NULL, 1, 1, 1, CONCAT('api:', p_client), 'api', '', p_created_at_ms, p_event_key); "
                + "INSERT INTO orders (order_id, customer_id, status, version, created_at_ms, status_since_ms, expire_at_ms, "
                + "redis_ready) VALUES (p_order_id, p_customer_id, 1, 1, p_created_at_ms, p_created_at_ms, p_expire_at_ms, 0); "
                + "END IF; "
                + "END");
    }

    @Override
    public boolean canExecuteInTransaction() {
        return false;
    }
}
