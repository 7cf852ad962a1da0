package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * People who sign in with the company's identity provider and act through {@code serve}. {@code sso_person} holds each
 * person's actor name ({@code sso:<name> via <client>}) with the issuer and subject ({@code sub}) it stands for, recorded
 * when serve first sees them: the follower accepts an outbox entry in a name recorded here as it accepts a login's, and
 * a name once recorded for one subject is refused to any other (a person who renames themself at the provider cannot take
 * another's name in the history). Rows are never deleted.
 *
 * <p>On a server that checks accounts nobody writes the table directly. Only serve's account (the follower role) calls the
 * procedures: {@code order_console_sso_person} records a person; {@code order_console_sso_create_order} creates one order
 * with its creation row in a recorded person's name; {@code order_console_sso_record_action} appends an audit row in a
 * recorded person's name, with the database's clock. serve has checked the person's token and role before each call.
 */
public class V49__Sso_people extends BaseJavaMigration {
    private static final String LOGIN = V39__Stamped_writes.LOGIN;
    private static final String NOW_MS = V39__Stamped_writes.NOW_MS;
    private static final String DEFINER = V39__Stamped_writes.DEFINER;
    private static final String ID = "VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin";
    private static final String ACTOR = "VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";
    private static final String TEXT = "VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin";
    private static final String KNOWN = "IF NOT EXISTS (SELECT 1 FROM sso_person WHERE actor = p_actor) THEN "
            + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'this person was never recorded by serve'; END IF; ";

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE sso_person ("
                    + " actor       " + ACTOR + " NOT NULL,"
                    + " issuer      " + TEXT + " NOT NULL,"
                    + " subject     " + TEXT + " NOT NULL,"
                    + " first_at_ms BIGINT NOT NULL,"
                    + " recorded_by VARCHAR(80) CHARACTER SET utf8mb4 NOT NULL,"
                    + " PRIMARY KEY (actor)"
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

    /** Makes the procedures anew under the account running it; also run by {@link RemakeRoutines}. */
    static void createRoutines(Statement st) throws java.sql.SQLException {
        for (String p : new String[]{"order_console_sso_person", "order_console_sso_create_order", "order_console_sso_record_action"}) {
            st.execute("DROP PROCEDURE IF EXISTS " + p);
        }
        st.execute("CREATE PROCEDURE order_console_sso_person(IN p_actor " + ACTOR + ", IN p_issuer " + TEXT + ", IN p_subject "
                + TEXT + ")" + DEFINER
                + "BEGIN "
                + "IF LEFT(p_actor, 4) <> 'sso:' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a person''s actor begins with sso:'; END IF; "
                + "INSERT IGNORE INTO sso_person (actor, issuer, subject, first_at_ms, recorded_by) VALUES (p_actor, p_issuer, "
                + "p_subject, " + NOW_MS + ", " + LOGIN + "); "
                + "IF NOT EXISTS (SELECT 1 FROM sso_person WHERE actor = p_actor AND issuer = p_issuer AND subject = p_subject) THEN "
                + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'this name is recorded for another person of the identity provider'; END IF; "
                + "END");
        st.execute("CREATE PROCEDURE order_console_sso_create_order(IN p_actor " + ACTOR + ", IN p_order_id " + ID + ", "
                + "IN p_customer_id " + ID + ", IN p_created_at_ms BIGINT, IN p_expire_at_ms BIGINT, IN p_event_key VARCHAR(80))"
                + DEFINER
                + "BEGIN DECLARE there INT DEFAULT 0; " + KNOWN
                + V40__Role_checked_procedures.apiCreationChecks()
                + "SELECT COUNT(*) INTO there FROM orders WHERE order_id = p_order_id; "
                + "IF there = 0 THEN "
                + "INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, "
                + "event_key) VALUES (p_order_id, NULL, 1, 1, 1, p_actor, 'api', '', p_created_at_ms, p_event_key); "
                + "INSERT INTO orders (order_id, customer_id, status, version, created_at_ms, status_since_ms, expire_at_ms, "
                + "redis_ready) VALUES (p_order_id, p_customer_id, 1, 1, p_created_at_ms, p_created_at_ms, p_expire_at_ms, 0); "
                + "END IF; "
                + "END");
        st.execute("CREATE PROCEDURE order_console_sso_record_action(IN p_actor " + ACTOR + ", IN p_source VARCHAR(32), "
                + "IN p_action VARCHAR(40), IN p_order_id VARCHAR(64), IN p_reason VARCHAR(500), IN p_detail VARCHAR(1000))" + DEFINER
                + "BEGIN " + KNOWN
                + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                + "p_actor, p_source, p_action, p_order_id, IFNULL(p_reason, ''), IFNULL(p_detail, '')); "
                + "END");
    }

    @Override
    public boolean canExecuteInTransaction() {
        return false;
    }
}
