package com.orderconsole.store.migration;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.store.ConsoleRoles;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Statement;

import static com.orderconsole.store.migration.V39__Stamped_writes.DEFINER;
import static com.orderconsole.store.migration.V39__Stamped_writes.LOGIN;
import static com.orderconsole.store.migration.V39__Stamped_writes.NOW_MS;

/**
 * Every procedure checks, inside the database, that the caller's role may write what it writes. V39's stamp of who
 * wrote is not enough: without these checks a support account could record an OVERRIDE, create orders in any status with
 * invented history, plant history for an id not yet created, move payment deadlines without a trace and close dead
 * letters by hand.
 *
 * <p><b>How the role is checked.</b> Each kind of write has a procedure of its own, and EXECUTE on it is granted to the
 * one role that may write it ({@link ConsoleRoles#PROCEDURES}): the server checks that privilege in the caller's security
 * context with the roles in force, nested roles included, on MariaDB and MySQL alike. Inside a {@code SQL SECURITY
 * DEFINER} routine the session's roles are not reliably visible (the security context is the definer's), so reading
 * CURRENT_ROLE() or ENABLED_ROLES there would ask the wrong account. What a procedure accepts is checked by the
 * procedure, before it writes anything (a forged call in autocommit mode must leave nothing behind):
 * <ul>
 * <li>{@code order_console_record_action} (ops): any action but those written only with their effect (OVERRIDE,
 *     QUEUE_EXTEND, DEAD_LETTER_RETRY, DEAD_LETTER_DISCARD);</li>
 * <li>{@code order_console_record_override} (admin): the OVERRIDE record the follower asks for;</li>
 * <li>{@code order_console_create_orders} (support): WAIT_PAY orders at version 1 with exactly their creation row;</li>
 * <li>{@code order_console_import_orders} (ops): history contiguous from version 1 to the order's version, each move
 *     starting where the one before ended, the last one at the order's status, only for orders of the same call;</li>
 * <li>{@code order_console_copy_order} (admin): reconciliation's copy of a Redis-only order, one row saying so;</li>
 * <li>{@code order_console_set_expiry} (ops): a payment deadline, with its audit row;</li>
 * <li>{@code order_console_resolve_dead_letter} (ops): a dead letter retried or discarded, with its audit row;
 *     people's roles lose UPDATE on {@code dead_letter}, and a trigger opens every inserted letter (no one inserts one
 *     already closed in someone's name);</li>
 * <li>{@code order_console_follow_history} (ops: a repair), {@code order_console_mark_loaded} (support).</li>
 * </ul>
 * Event keys of created history are the procedure's, not the caller's: a caller choosing them could squat the key of a
 * future outbox entry. Ids are compared byte-exact through the primary key: parameters are {@code ascii_bin} like the id
 * column, JSON_TABLE ids are cast to it.
 *
 * <p>Made only on a server that checks accounts (as V38 and V39); the embedded default writes directly, as before.
 */
public class V40__Role_checked_procedures extends BaseJavaMigration {
    /** The id column's type: parameters compare with it byte-exact and through the primary key. */
    static final String ID = "VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin";
    /** A JSON_TABLE id as the id column holds it (wide enough that an over-long id is seen, not cut). */
    private static final String CAST_ID_H = "CAST(h.id AS CHAR(200) CHARACTER SET ascii) COLLATE ascii_bin";
    private static final String CAST_ID_J = "CAST(j.id AS CHAR(200) CHARACTER SET ascii) COLLATE ascii_bin";
    /** What support's creation is dated at most this far from the server's clock, ms (the front ends date it "now"). */
    static final long CLOCK_SLACK_MS = 60_000;
    /** The longest payment deadline any front end sets, ms after the order's creation (the CLI's and API's cap). */
    static final long MAX_DEADLINE_MS = 365L * 24 * 3600 * 1000;
    private static final int STATUSES = OrderStatus.values().length;
    private static final String ORDERS = "JSON_TABLE(p_orders, '$[*]' COLUMNS (id VARCHAR(200) PATH '$[0]', "
            + "customer VARCHAR(64) PATH '$[1]', status INT PATH '$[2]', version BIGINT PATH '$[3]', created BIGINT PATH '$[4]', "
            + "since BIGINT PATH '$[5]', expire BIGINT PATH '$[6]')) j";
    private static final String HISTORY = "JSON_TABLE(p_history, '$[*]' COLUMNS (id VARCHAR(200) PATH '$[0]', "
            + "from_status INT PATH '$[1]', to_status INT PATH '$[2]', version BIGINT PATH '$[3]', code INT PATH '$[4]', "
            + "source VARCHAR(32) PATH '$[5]', reason VARCHAR(500) PATH '$[6]', at_ms BIGINT PATH '$[7]')) h";
    static final String MARK_LOADED = "UPDATE orders o JOIN JSON_TABLE(p_ids, '$[*]' COLUMNS (id VARCHAR(200) PATH '$')) j "
            + "ON " + sameId("o.order_id", CAST_ID_J) + " AND " + IdSql.wellFormed(CAST_ID_J) + " SET o.redis_ready = 1";
    static final String SET_EXPIRY = "UPDATE orders SET expire_at_ms = p_expire_at_ms WHERE " + sameId("order_id", "p_order_id");
    static final String FOLLOW_HISTORY = "UPDATE orders o JOIN order_history h ON h.order_id = o.order_id AND h.version = p_version "
            + "AND h.result_code = 1 SET o.status = h.to_status, o.version = h.version, o.status_since_ms = h.at_ms "
            + "WHERE " + sameId("o.order_id", "p_order_id") + " AND o.version < p_version";
    /**
     * Two ids are the same order only byte for byte. The id column's collation pads trailing spaces (MariaDB's and
     * MySQL's ascii_bin, so 'TW-1 ' = 'TW-1'); equal lengths on top of the padded equality leave exactly the equal
     * bytes, and the padded equality keeps the lookup on the primary key.
     */
    static String sameId(String column, String id) {
        return column + " = " + id + " AND LENGTH(" + column + ") = LENGTH(" + id + ")";
    }

    /** The history of orders that do not exist yet (creation, import, copy), the event key left to the caller. */
    static String historyOfNewOrders(String key, String from) {
        return "INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, "
                + "event_key) SELECT " + CAST_ID_H + ", " + from + ", h.to_status, h.version, 1, " + LOGIN + ", h.source, "
                + "IFNULL(h.reason, ''), h.at_ms, " + key + " FROM " + HISTORY
                + " WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = " + CAST_ID_H + ")";
    }

    /** The history rows of a call whose order does not exist yet, read by the creation procedures' cursor. */
    static final String NEW_HISTORY = "SELECT " + CAST_ID_H + ", h.from_status, h.to_status, h.version, h.source, IFNULL(h.reason, ''), "
            + "h.at_ms FROM " + HISTORY + " WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = " + CAST_ID_H + ")";

    /**
     * @return the procedures' statements that look orders up by id, with their parameters as written ({@code p_…}), for
     *     the test that EXPLAINs them (each must use the primary key)
     */
    public static java.util.List<String> statementsByOrderId() {
        return java.util.List.of(MARK_LOADED, SET_EXPIRY, "SELECT COUNT(*) FROM orders WHERE " + sameId("order_id", "p_order_id"), FOLLOW_HISTORY,
                NEW_HISTORY);
    }

    /** Versions an imported order may have at most (its history is checked as one text per order). */
    static final int MAX_IMPORTED_VERSION = 1000;

    @Override
    public void migrate(Context context) throws Exception {
        if (!ConsoleRoles.createAndGrant(context.getConnection())) {
            return; // no grant tables: one owner, nobody to tell apart
        }
        try (Statement st = context.getConnection().createStatement()) {
            createRoutines(st);
        }
        ConsoleRoles.grantProcedures(context.getConnection());
    }

    /**
     * Every procedure of this migration and the dead letters' trigger, made anew (also by {@link RemakeRoutines}, under
     * the account that runs migrate). Grants nothing: the caller runs {@link ConsoleRoles#grantProcedures} after.
     */
    static void createRoutines(Statement st) throws java.sql.SQLException {
        {
            for (String p : ConsoleRoles.PROCEDURES.keySet()) {
                if (!p.endsWith("sign_in")) {
                    st.execute("DROP PROCEDURE IF EXISTS " + p);
                }
            }
            st.execute("CREATE PROCEDURE order_console_record_action(IN p_source VARCHAR(32), IN p_action VARCHAR(40), "
                    + "IN p_order_id " + ID + ", IN p_reason VARCHAR(500), IN p_detail VARCHAR(1000))" + DEFINER
                    + "BEGIN "
                    + refuseIf("p_action IS NULL OR p_action IN ('OVERRIDE', 'QUEUE_EXTEND', 'DEAD_LETTER_RETRY', 'DEAD_LETTER_DISCARD')",
                    "this action is recorded only with the change it records (an override only by an admin)")
                    + refuseIf(IdSql.malformed("p_order_id"), IdSql.WORDS)
                    + refuseNul("p_source", "p_reason", "p_detail")
                    + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                    + LOGIN + ", p_source, p_action, p_order_id, IFNULL(p_reason, ''), IFNULL(p_detail, '')); "
                    + "END");
            st.execute("CREATE PROCEDURE order_console_record_override(IN p_source VARCHAR(32), IN p_order_id " + ID
                    + ", IN p_reason VARCHAR(500), IN p_detail VARCHAR(1000))" + DEFINER
                    + "BEGIN "
                    + refuseIf("p_order_id IS NULL OR TRIM(IFNULL(p_reason, '')) = ''", "an override names its order and needs a reason")
                    + refuseIf(IdSql.malformed("p_order_id"), IdSql.WORDS)
                    + refuseNul("p_source", "p_reason", "p_detail")
                    + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                    + LOGIN + ", p_source, 'OVERRIDE', p_order_id, p_reason, IFNULL(p_detail, '')); "
                    + "END");
            st.execute(creation("order_console_create_orders", true));
            st.execute(creation("order_console_import_orders", false));
            st.execute("CREATE PROCEDURE order_console_copy_order(IN p_orders LONGTEXT, IN p_history LONGTEXT)" + DEFINER
                    + "BEGIN DECLARE bad INT; "
                    + "SET bad = (SELECT COUNT(*) FROM " + ORDERS + ") <> 1 OR (SELECT COUNT(*) FROM " + HISTORY + ") <> 1 "
                    + "OR (SELECT COUNT(*) FROM " + ORDERS + " JOIN " + HISTORY + " ON " + CAST_ID_H + " = " + CAST_ID_J
                    + " AND h.from_status IS NULL AND h.to_status = j.status AND h.version = j.version AND h.code = 1 "
                    + "AND j.version >= 1 AND j.status BETWEEN 1 AND " + STATUSES + " AND " + IdSql.wellFormed(CAST_ID_J)
                    + " AND h.source = 'repair' AND ABS(h.at_ms - " + NOW_MS + ") <= " + CLOCK_SLACK_MS + " AND j.created >= 0 "
                    + "AND j.created <= " + NOW_MS + " + " + CLOCK_SLACK_MS + " AND j.since >= j.created "
                    + "AND (j.expire IS NULL OR j.expire BETWEEN 0 AND " + NOW_MS + " + " + MAX_DEADLINE_MS + ")"
                    + " AND NOT " + IdSql.malformed("j.customer") + ") <> 1; "
                    + refuseIf("bad", "a copied order is one order with one history row (source repair, dated now) at its own status and version")
                    + refuseTwins()
                    + historyOfNewOrders("CONCAT('repair:', " + CAST_ID_H + ", ':', h.version)", "NULL") + "; "
                    + insertOrders()
                    + "END");
            // Ids that are not well-formed, or match a stored id only up to trailing spaces, mark nothing (and stop nothing).
            st.execute("CREATE PROCEDURE order_console_mark_loaded(IN p_ids LONGTEXT)" + DEFINER + MARK_LOADED);
            // The deadline the sweeper's cancels are checked against: ops only, and never without its record.
            st.execute("CREATE PROCEDURE order_console_set_expiry(IN p_order_id " + ID + ", IN p_expire_at_ms BIGINT, "
                    + "IN p_source VARCHAR(32), IN p_reason VARCHAR(500), IN p_detail VARCHAR(1000))" + DEFINER
                    + "BEGIN DECLARE before_ms BIGINT; DECLARE there INT; "
                    + refuseIf(IdSql.malformed("p_order_id"), IdSql.WORDS)
                    + "SET there = (SELECT COUNT(*) FROM orders WHERE " + sameId("order_id", "p_order_id") + "); "
                    + refuseIf("there = 0 OR p_expire_at_ms IS NULL", "no such order, or no deadline given")
                    + refuseIf("p_expire_at_ms <= 0 OR p_expire_at_ms > " + NOW_MS + " + " + MAX_DEADLINE_MS,
                    "a payment deadline is a time after 1970 and at most 365 days from now (epoch ms)")
                    + refuseNul("p_source", "p_reason", "p_detail")
                    + "SET before_ms = (SELECT expire_at_ms FROM orders WHERE " + sameId("order_id", "p_order_id") + "); "
                    + SET_EXPIRY + "; "
                    + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                    + LOGIN + ", p_source, 'QUEUE_EXTEND', p_order_id, IFNULL(p_reason, ''), LEFT(CONCAT(IFNULL(p_detail, ''), "
                    + "'; MySQL''s deadline ', IFNULL(before_ms, 'none'), ' -> ', p_expire_at_ms, ' (epoch ms)'), 1000)); "
                    + "END");
            st.execute("CREATE PROCEDURE order_console_follow_history(IN p_order_id " + ID + ", IN p_version BIGINT)" + DEFINER
                    + "BEGIN " + refuseIf(IdSql.malformed("p_order_id"), IdSql.WORDS) + FOLLOW_HISTORY + "; END");
            st.execute("CREATE PROCEDURE order_console_resolve_dead_letter(IN p_id BIGINT, IN p_state VARCHAR(12), "
                    + "IN p_resolution VARCHAR(500), IN p_source VARCHAR(32), IN p_detail VARCHAR(1000))" + DEFINER
                    + "BEGIN DECLARE letter_order " + ID + "; DECLARE open_now INT; "
                    + refuseIf("p_state IS NULL OR p_state NOT IN ('RETRIED', 'DISCARDED') OR TRIM(IFNULL(p_resolution, '')) = ''",
                    "a dead letter is closed as RETRIED or DISCARDED, with words")
                    + refuseNul("p_resolution", "p_source", "p_detail")
                    + "SET open_now = (SELECT COUNT(*) FROM dead_letter WHERE id = p_id AND state = 'OPEN'); "
                    + refuseIf("open_now = 0", "no open dead letter with this id")
                    + "SET letter_order = (SELECT order_id FROM dead_letter WHERE id = p_id); "
                    + "UPDATE dead_letter SET state = p_state, resolved_by = " + LOGIN + ", resolved_at_ms = " + NOW_MS
                    + ", resolution = p_resolution, open_key = NULL WHERE id = p_id AND state = 'OPEN'; "
                    + "INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) VALUES (" + NOW_MS + ", "
                    + LOGIN + ", IFNULL(p_source, 'dead-letters'), IF(p_state = 'RETRIED', 'DEAD_LETTER_RETRY', 'DEAD_LETTER_DISCARD'), "
                    + "letter_order, IF(p_state = 'DISCARDED', p_resolution, ''), IFNULL(p_detail, '')); "
                    + "END");
            st.execute("DROP TRIGGER IF EXISTS dead_letter_opened");
            st.execute("CREATE TRIGGER dead_letter_opened BEFORE INSERT ON dead_letter FOR EACH ROW "
                    + "SET NEW.state = 'OPEN', NEW.resolved_by = NULL, NEW.resolved_at_ms = NULL, NEW.resolution = NULL");
        }
    }

    /**
     * Creation (support: WAIT_PAY at version 1, one creation row) or import (ops: history contiguous from version 1). One
     * check over the call's orders and history grouped by id: every history row belongs to exactly one order of the
     * call, versions 1..n once each, every row applied, the first from no status, each from-status the status the row
     * before moved to, the last at the order's status. Nothing is written when one order fails it.
     */
    private static String creation(String name, boolean createOnly) {
        String u = "SELECT " + CAST_ID_J + " AS id, 1 AS o, j.status AS ost, j.version AS ov, NULL AS hv, NULL AS hf, NULL AS ht, "
                + "NULL AS hc, j.created AS oc, j.since AS os, j.expire AS oe, j.customer AS ocu, NULL AS hs, NULL AS ha FROM " + ORDERS
                + " UNION ALL SELECT " + CAST_ID_H + ", 0, NULL, NULL, h.version, h.from_status, h.to_status, h.code, NULL, NULL, "
                + "NULL, NULL, h.source, h.at_ms FROM " + HISTORY;
        String broken = "u.id IS NULL OR NOT IFNULL(" + IdSql.wellFormed("u.id") + ", 0) OR SUM(u.o) <> 1 OR MAX(u.ov) IS NULL "
                + "OR MAX(u.ov) < 1 OR MAX(u.ov) > " + MAX_IMPORTED_VERSION + " OR COUNT(*) - SUM(u.o) <> MAX(u.ov) "
                + "OR MIN(u.hv) <> 1 OR MAX(u.hv) <> MAX(u.ov) OR COUNT(DISTINCT u.hv) <> COUNT(*) - SUM(u.o) "
                + "OR SUM(u.o = 0 AND (u.hc IS NULL OR u.hc <> 1)) > 0 "
                + "OR SUM(u.o = 0 AND (u.ht IS NULL OR u.ht < 1 OR u.ht > " + STATUSES + ")) > 0 "
                + "OR SUM(u.o = 0 AND u.hf IS NOT NULL AND (u.hf < 1 OR u.hf > " + STATUSES + ")) > 0 "
                + "OR MAX(u.ost) IS NULL OR MAX(u.ost) < 1 OR MAX(u.ost) > " + STATUSES + " "
                + "OR CONCAT('0,', GROUP_CONCAT(CASE WHEN u.o = 0 THEN u.ht END ORDER BY u.hv)) "
                + "<> CONCAT(GROUP_CONCAT(CASE WHEN u.o = 0 THEN IFNULL(u.hf, 0) END ORDER BY u.hv), ',', MAX(u.ost))"
                + (createOnly ? " OR MAX(u.ov) <> 1 OR MAX(u.ost) <> " + OrderStatus.WAIT_PAY.code() : "")
                + " OR SUM(u.o = 1 AND " + IdSql.malformed("u.ocu") + ") > 0 OR " + times(createOnly)
                + " OR SUM(u.o = 0 AND (u.hs IS NULL OR u.hs NOT IN (" + (createOnly ? "'create', 'simulator'" : "'import'") + "))) > 0";
        String key = createOnly ? "CONCAT('create:', c_id)" : "CONCAT('import:', c_id, ':', c_version)";
        // Row by row through a cursor: on MariaDB 11.4 an INSERT … SELECT of several rows from JSON_TABLE into
        // order_history, which has V38's BEFORE INSERT trigger, fails with "Column 'order_id' cannot be null" on the
        // second row (seen here; 10.11 is not affected). An import under accounts failed on it with V39's procedure.
        return "CREATE PROCEDURE " + name + "(IN p_orders LONGTEXT, IN p_history LONGTEXT)" + DEFINER
                + "BEGIN DECLARE bad INT; DECLARE done INT DEFAULT 0; DECLARE c_id " + ID + "; DECLARE c_from INT; "
                + "DECLARE c_to INT; DECLARE c_version BIGINT; DECLARE c_source VARCHAR(32); DECLARE c_reason VARCHAR(500); "
                + "DECLARE c_at BIGINT; "
                + "DECLARE rows_of_new CURSOR FOR " + NEW_HISTORY + "; "
                + "DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1; "
                + "SET SESSION group_concat_max_len = GREATEST(@@group_concat_max_len, 65536); "
                + "SET bad = (SELECT COUNT(*) FROM (SELECT u.id FROM (" + u + ") u GROUP BY u.id HAVING " + broken + ") b); "
                + refuseIf("bad > 0", createOnly
                ? "support creates WAIT_PAY orders at version 1, dated now, each with one creation row (an import is ops'' work)"
                : "imported history runs unbroken from version 1 to the order''s status and version, for orders of this call only")
                + refuseTwins()
                + "OPEN rows_of_new; "
                + "history_rows: LOOP FETCH rows_of_new INTO c_id, c_from, c_to, c_version, c_source, c_reason, c_at; "
                + "IF done = 1 THEN LEAVE history_rows; END IF; "
                + "INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, at_ms, "
                + "event_key) VALUES (c_id, c_from, c_to, c_version, 1, " + LOGIN + ", c_source, c_reason, c_at, " + key + "); "
                + "END LOOP; CLOSE rows_of_new; "
                + insertOrders()
                + "END";
    }

    /**
     * The times a front end can give: support's creation is dated at the server's clock (within {@link #CLOCK_SLACK_MS}),
     * its creation row at the same time, its deadline after it and at most {@link #MAX_DEADLINE_MS} later; an import
     * carries past times, none negative and none in the future, a deadline at most a year from now.
     */
    private static String times(boolean createOnly) {
        String now = NOW_MS;
        String t = "MIN(u.oc) IS NULL OR MIN(u.oc) < 0 OR MAX(u.oc) > " + now + " + " + CLOCK_SLACK_MS
                + " OR MIN(u.os) IS NULL OR MIN(u.os) < MAX(u.oc) OR MAX(u.os) > " + now + " + " + CLOCK_SLACK_MS
                + " OR MIN(u.ha) IS NULL OR MIN(u.ha) < 0 OR MAX(u.ha) > " + now + " + " + CLOCK_SLACK_MS
                + " OR (MAX(u.oe) IS NOT NULL AND (MIN(u.oe) < 0 OR MAX(u.oe) > " + now + " + " + MAX_DEADLINE_MS + "))";
        if (!createOnly) {
            return "(" + t + ")";
        }
        return "(" + t + " OR MAX(u.oc) < " + now + " - " + CLOCK_SLACK_MS + " OR MAX(u.os) <> MAX(u.oc) OR MIN(u.ha) <> MAX(u.oc) "
                + "OR MAX(u.ha) <> MAX(u.oc) OR (MAX(u.oe) IS NOT NULL AND (MAX(u.oe) <= MAX(u.oc) OR MAX(u.oe) > MAX(u.oc) + "
                + MAX_DEADLINE_MS + ")))";
    }

    /**
     * Refuses a call naming an order whose id matches a stored one only up to trailing spaces: the primary key pads
     * them, so the row could never be inserted, and its history would be written for no order.
     */
    private static String refuseTwins() {
        return refuseIf("EXISTS (SELECT 1 FROM " + ORDERS + " JOIN orders o ON o.order_id = " + CAST_ID_J + " AND LENGTH(o.order_id) <> "
                + "LENGTH(" + CAST_ID_J + "))", "a stored order id differs from one of these only in trailing spaces");
    }

    /**
     * What the API's creation procedures (V45 for a client, V49 for a person) check besides the caller: well-formed ids,
     * no stored twin of the id up to trailing spaces, created at the server's clock, a deadline after it and at most a year
     * later. The procedure declares {@code there INT}; nothing in these checks takes a lock.
     */
    static String apiCreationChecks() {
        return refuseIf(IdSql.malformed("p_order_id") + " OR p_order_id IS NULL OR " + IdSql.malformed("p_customer_id"), IdSql.WORDS)
                // SELECT ... INTO, not IF EXISTS (SELECT ...): in a procedure that writes, the subquery of an IF is a locking
                // read, which locks the gap where an absent id goes, and two creations inserting into each other's gap deadlock.
                + "SELECT COUNT(*) INTO there FROM orders WHERE order_id = p_order_id AND LENGTH(order_id) <> LENGTH(p_order_id); "
                + refuseIf("there > 0", "a stored order id differs from this one only in trailing spaces")
                + refuseIf("p_created_at_ms IS NULL OR ABS(p_created_at_ms - " + NOW_MS + ") > " + CLOCK_SLACK_MS
                + " OR p_expire_at_ms IS NULL OR p_expire_at_ms <= p_created_at_ms OR p_expire_at_ms > p_created_at_ms + " + MAX_DEADLINE_MS,
                "an API order is created now, its payment deadline after that and at most 365 days later");
    }

    private static String insertOrders() {
        return "INSERT IGNORE INTO orders (order_id, customer_id, status, version, created_at_ms, status_since_ms, expire_at_ms, "
                + "redis_ready) SELECT " + CAST_ID_J + ", j.customer, j.status, j.version, j.created, j.since, j.expire, 0 FROM "
                + ORDERS + "; ";
    }

    /** A refusal in words (SQLSTATE 45000, error 1644 on both servers); nothing written before it. */
    private static String refuseIf(String condition, String words) {
        if (words.replace("''", "'").length() > 128) {
            throw new IllegalArgumentException("MESSAGE_TEXT holds 128 characters: " + words); // MySQL refuses more
        }
        return "IF " + condition + " THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '" + words + "'; END IF; ";
    }

    /** Refuses a NUL byte in words: it would be stored and printed raw. */
    private static String refuseNul(String... params) {
        StringBuilder c = new StringBuilder();
        for (String p : params) {
            c.append(c.length() == 0 ? "" : " OR ").append("INSTR(IFNULL(").append(p).append(", ''), CHAR(0)) > 0");
        }
        return refuseIf(c.toString(), "a text holds a NUL character");
    }

    @Override
    public boolean canExecuteInTransaction() {
        // CREATE PROCEDURE, CREATE TRIGGER and GRANT commit implicitly.
        return false;
    }
}
