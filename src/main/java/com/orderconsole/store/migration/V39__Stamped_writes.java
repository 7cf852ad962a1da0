package com.orderconsole.store.migration;

import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

/**
 * A person's console account may not write history or audit rows, nor change an order's status, with
 * plain SQL. The people's roles lose INSERT on {@code order_history}, {@code audit_log} and {@code orders} and UPDATE of
 * an order's status ({@link ConsoleRoles}); what a person's work writes there goes through the stored procedures below,
 * which run with their definer's rights ({@code SQL SECURITY DEFINER}) and name as actor the login of the session
 * that calls them ({@code SESSION_USER()}: inside a procedure {@code CURRENT_USER()} is the definer). Nobody can pass
 * another person's name to them. The MySQL follower, which writes history in other people's names by design, runs under
 * its own role, {@code order_console_follower}, held by service accounts only.
 *
 * <p>{@code console_account} lists the logins the database has seen sign in, stamped by the procedures: the follower
 * sets aside outbox entries naming an actor not among them (or the product's jobs), and the audit view tells the
 * follower's rows from anyone else's. It is written by no account directly.
 *
 * <p>Made only on a server that checks accounts (as V38's triggers); on the embedded default the tables exist and
 * stay empty. The migrating account becomes the procedures' definer and must keep INSERT and UPDATE on the schema.
 */
public class V39__Stamped_writes extends BaseJavaMigration {
    /** The login of the calling session ("user" of "user@client host"; a user name may itself hold '@'). */
    static final String LOGIN = "SUBSTRING(SESSION_USER(), 1, CHAR_LENGTH(SESSION_USER()) "
            + "- CHAR_LENGTH(SUBSTRING_INDEX(SESSION_USER(), '@', -1)) - 1)";
    static final String NOW_MS = "CAST(ROUND(UNIX_TIMESTAMP(CURRENT_TIMESTAMP(3)) * 1000) AS SIGNED)";
    static final String DEFINER = " MODIFIES SQL DATA SQL SECURITY DEFINER ";

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement st = context.getConnection().createStatement()) {
            st.execute("CREATE TABLE console_account ("
                    + " login       VARCHAR(80) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,"
                    // 1: the login held order_console_follower when it signed in as the follower.
                    + " follower    TINYINT NOT NULL DEFAULT 0,"
                    + " first_at_ms BIGINT  NOT NULL,"
                    + " PRIMARY KEY (login)"
                    + ") ENGINE = InnoDB");
        }
        if (!ConsoleRoles.createAndGrant(context.getConnection())) {
            return; // no grant tables: one owner, nobody to tell apart
        }
        try (Statement st = context.getConnection().createStatement()) {
            for (String p : ConsoleRoles.PROCEDURES.keySet()) {
                st.execute("DROP PROCEDURE IF EXISTS " + p);
            }
            createSignIns(st);
            st.execute("CREATE PROCEDURE order_console_record_action(IN p_source VARCHAR(32), IN p_action VARCHAR(40), "
                    + "IN p_order_id VARCHAR(64), IN p_reason VARCHAR(500), IN p_detail VARCHAR(1000))" + DEFINER
                    + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                    + LOGIN + ", p_source, p_action, p_order_id, IFNULL(p_reason, ''), IFNULL(p_detail, ''))");
            // History first, and only of orders that do not exist: a call cannot add rows to an existing order's history.
            st.execute("CREATE PROCEDURE order_console_create_orders(IN p_orders LONGTEXT, IN p_history LONGTEXT)" + DEFINER
                    + "BEGIN "
                    + "INSERT IGNORE INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, "
                    + "reason, at_ms, event_key) SELECT h.id, h.from_status, h.to_status, h.version, h.code, " + LOGIN
                    + ", h.source, IFNULL(h.reason, ''), h.at_ms, h.event_key FROM JSON_TABLE(p_history, '$[*]' COLUMNS ("
                    + "id VARCHAR(64) PATH '$[0]', from_status INT PATH '$[1]', to_status INT PATH '$[2]', version BIGINT PATH '$[3]', "
                    + "code INT PATH '$[4]', source VARCHAR(32) PATH '$[5]', reason VARCHAR(500) PATH '$[6]', at_ms BIGINT PATH '$[7]', "
                    + "event_key VARCHAR(80) PATH '$[8]')) h WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = h.id); "
                    + "INSERT IGNORE INTO orders (order_id, customer_id, status, version, created_at_ms, status_since_ms, "
                    + "expire_at_ms, redis_ready) SELECT j.id, j.customer, j.status, j.version, j.created, j.since, j.expire, 0 "
                    + "FROM JSON_TABLE(p_orders, '$[*]' COLUMNS (id VARCHAR(64) PATH '$[0]', customer VARCHAR(64) PATH '$[1]', "
                    + "status INT PATH '$[2]', version BIGINT PATH '$[3]', created BIGINT PATH '$[4]', since BIGINT PATH '$[5]', "
                    + "expire BIGINT PATH '$[6]')) j; "
                    + "END");
            st.execute("CREATE PROCEDURE order_console_mark_loaded(IN p_ids LONGTEXT)" + DEFINER
                    + "UPDATE orders o JOIN JSON_TABLE(p_ids, '$[*]' COLUMNS (id VARCHAR(64) PATH '$')) j ON o.order_id = j.id "
                    + "SET o.redis_ready = 1");
            st.execute("CREATE PROCEDURE order_console_set_expiry(IN p_order_id VARCHAR(64), IN p_expire_at_ms BIGINT)" + DEFINER
                    + "UPDATE orders SET expire_at_ms = p_expire_at_ms WHERE order_id = p_order_id");
            // The row moves only to what its own history records as applied (result code 1) at a newer version.
            st.execute("CREATE PROCEDURE order_console_follow_history(IN p_order_id VARCHAR(64), IN p_version BIGINT)" + DEFINER
                    + "UPDATE orders o JOIN order_history h ON h.order_id = o.order_id AND h.version = p_version AND h.result_code = 1 "
                    + "SET o.status = h.to_status, o.version = h.version, o.status_since_ms = h.at_ms "
                    + "WHERE o.order_id = p_order_id AND o.version < p_version");
            ConsoleRoles.grantProcedures(context.getConnection());
        }
    }

    /** The two sign-in procedures, made anew (also by {@link RemakeRoutines}, under the account that runs migrate). */
    static void createSignIns(Statement st) throws java.sql.SQLException {
        st.execute("DROP PROCEDURE IF EXISTS order_console_sign_in");
        st.execute("DROP PROCEDURE IF EXISTS order_console_follower_sign_in");
        st.execute("CREATE PROCEDURE order_console_sign_in()" + DEFINER
                + "INSERT IGNORE INTO console_account (login, follower, first_at_ms) VALUES (" + LOGIN + ", 0, " + NOW_MS + ")");
        st.execute("CREATE PROCEDURE order_console_follower_sign_in()" + DEFINER
                + "INSERT INTO console_account (login, follower, first_at_ms) VALUES (" + LOGIN + ", 1, " + NOW_MS + ") "
                + "ON DUPLICATE KEY UPDATE follower = 1");
    }

    @Override
    public boolean canExecuteInTransaction() {
        // CREATE TABLE, GRANT and CREATE PROCEDURE commit implicitly.
        return false;
    }
}
