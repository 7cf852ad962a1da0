package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.store.migration.V40__Role_checked_procedures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 33.1 and 33.4: every procedure checks inside the database that the caller's role may write what it writes, and
 * compares ids byte-exact through the primary key. Each call is made as a plain client would, signed in as the account
 * (sam support, olga ops, ada admin), on the MariaDB with grant tables. Every refused call leaves nothing behind.
 */
@Slow
class RoleCheckedProceduresTest {
    /** MySQL/MariaDB: EXECUTE denied for the routine. */
    private static final int NO_EXECUTE = 1370;
    /** SIGNAL SQLSTATE '45000': the procedure's own refusal, in words. */
    private static final int REFUSED_IN_WORDS = 1644;
    private static final long DAY = 86_400_000L;

    @BeforeEach
    void empty() {
        AccessControlledDb.reset();
    }

    @Test
    void onlyAnAdminRecordsAnOverrideAndOnlyOpsAnOpsAction() throws Exception {
        for (String who : List.of("sam", "olga")) {
            refused(who, NO_EXECUTE, "CALL order_console_record_override('cli', 'o-1', 'reopen', 'v5 to v6 PAID')");
        }
        refused("sam", NO_EXECUTE, "CALL order_console_record_action('cli', 'REPAIR', 'o-1', 'x', '')");
        for (String who : List.of("olga", "ada")) {
            refused(who, REFUSED_IN_WORDS, "CALL order_console_record_action('cli', 'OVERRIDE', 'o-1', 'reopen', 'v5 to v6 PAID')");
            refused(who, REFUSED_IN_WORDS, "CALL order_console_record_action('cli', 'QUEUE_EXTEND', 'o-1', '', '')");
            refused(who, REFUSED_IN_WORDS, "CALL order_console_record_action('cli', 'DEAD_LETTER_DISCARD', 'o-1', '', '')");
            refused(who, REFUSED_IN_WORDS, "CALL order_console_record_action('cli', 'REPAIR', 'o-1', CONCAT('a', CHAR(0)), '')");
        }
        refused("ada", REFUSED_IN_WORDS, "CALL order_console_record_override('cli', 'o-1', '  ', 'v5 to v6 PAID')");
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log")).isZero();
        ok("olga", "CALL order_console_record_action('cli', 'REPAIR', 'o-1', 'x', '')");
        ok("ada", "CALL order_console_record_override('cli', 'o-1', 'customer paid late', 'v5 to v6 PAID')");
        assertThat(rows("SELECT CONCAT(action, ' ', actor) FROM audit_log ORDER BY id")).containsExactly("REPAIR olga", "OVERRIDE ada");
    }

    @Test
    void supportCreatesOnlyWaitPayOrdersAtVersionOneWithTheirCreationRow() throws Exception {
        String create = "CALL order_console_create_orders(?, ?)";
        // The FINISHED v5 with five invented rows.
        refused("sam", REFUSED_IN_WORDS, create, "[[\"f-1\",null,5,5,@T,@T,null]]", "[[\"f-1\",null,1,1,1,\"create\",\"\",@T,\"x\"],"
                + "[\"f-1\",1,2,2,1,\"c\",\"\",@T,\"x\"],[\"f-1\",2,3,3,1,\"c\",\"\",@T,\"x\"],[\"f-1\",3,4,4,1,\"c\",\"\",@T,\"x\"],"
                + "[\"f-1\",4,5,5,1,\"c\",\"\",@T,\"x\"]]");
        // History planted for an id the call does not create.
        refused("sam", REFUSED_IN_WORDS, create, "[[\"p-1\",null,1,1,@T,@T,null]]",
                "[[\"p-1\",null,1,1,1,\"create\",\"\",@T,\"x\"],[\"later-1\",null,1,1,1,\"create\",\"\",@T,\"x\"]]");
        // No creation row, two creation rows, a refused row, a creation row at another status.
        refused("sam", REFUSED_IN_WORDS, create, "[[\"n-1\",null,1,1,@T,@T,null]]", "[]");
        refused("sam", REFUSED_IN_WORDS, create, "[[\"n-1\",null,1,1,@T,@T,null]]",
                "[[\"n-1\",null,1,1,1,\"create\",\"\",@T,\"x\"],[\"n-1\",null,1,1,1,\"create\",\"\",@T,\"y\"]]");
        refused("sam", REFUSED_IN_WORDS, create, "[[\"n-1\",null,1,1,@T,@T,null]]", "[[\"n-1\",null,1,1,-3,\"create\",\"\",@T,\"x\"]]");
        refused("sam", REFUSED_IN_WORDS, create, "[[\"n-1\",null,1,1,@T,@T,null]]", "[[\"n-1\",null,2,1,1,\"create\",\"\",@T,\"x\"]]");
        // Ids no order can have.
        refused("sam", REFUSED_IN_WORDS, create, "[[\"bad id\",null,1,1,@T,@T,null]]", "[[\"bad id\",null,1,1,1,\"create\",\"\",@T,\"x\"]]");
        refused("sam", NO_EXECUTE, "CALL order_console_import_orders(?, ?)", "[[\"i-1\",null,1,1,@T,@T,null]]",
                "[[\"i-1\",null,1,1,1,\"create\",\"\",@T,\"x\"]]");
        refused("sam", NO_EXECUTE, "CALL order_console_copy_order(?, ?)", "[[\"i-1\",null,3,3,@T,@T,null]]",
                "[[\"i-1\",null,3,3,1,\"repair\",\"\",@T,\"x\"]]");
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM orders")).isZero();
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history")).isZero();

        ok("sam", create, "[[\"n-1\",\"c-1\",1,1,@T,@T,@E]]", "[[\"n-1\",null,1,1,1,\"create\",\"\",@T,\"b3/1-0/1700000000000-0\"]]");
        assertThat(rows("SELECT CONCAT(actor, ' ', event_key) FROM order_history")).as("the procedure chooses the event key")
                .containsExactly("sam create:n-1");
    }

    @Test
    void anImportIsOpsWorkAndItsHistoryRunsUnbrokenFromVersionOne() throws Exception {
        String imp = "CALL order_console_import_orders(?, ?)";
        String order = "[[\"i-1\",null,5,3,1,1,null]]";
        refused("olga", REFUSED_IN_WORDS, imp, order, history("[null,1,1]", "[1,2,2]"));            // stops short of v3
        refused("olga", REFUSED_IN_WORDS, imp, order, history("[null,1,1]", "[1,2,2]", "[2,5,4]")); // a gap (no v3, a v4)
        refused("olga", REFUSED_IN_WORDS, imp, order, history("[null,1,1]", "[3,2,2]", "[2,5,3]")); // v2 not from v1's status
        refused("olga", REFUSED_IN_WORDS, imp, order, history("[null,1,1]", "[1,2,2]", "[2,6,3]")); // ends CANCELLED, row FINISHED
        refused("olga", REFUSED_IN_WORDS, imp, order, history("[2,1,1]", "[1,2,2]", "[2,5,3]"));    // v1 from a status
        refused("olga", REFUSED_IN_WORDS, imp, "[[\"i-1\",null,5,3,1,1,null]]", "[[\"i-1\",null,1,1,1,\"import\",\"\",1],"
                + "[\"i-1\",1,2,2,1,\"import\",\"\",1],[\"i-1\",2,5,3,1,\"import\",\"\",1],[\"other\",null,1,1,1,\"import\",\"\",1]]");
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history")).isZero();
        ok("olga", imp, order, history("[null,1,1]", "[1,2,2]", "[2,5,3]"));
        assertThat(rows("SELECT CONCAT(version, ' ', actor, ' ', event_key) FROM order_history ORDER BY version"))
                .containsExactly("1 olga import:i-1:1", "2 olga import:i-1:2", "3 olga import:i-1:3");
        // Again: the order exists, so nothing is added to its history.
        ok("olga", imp, order, history("[null,1,1]", "[1,2,2]", "[2,5,3]"));
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history")).isEqualTo(3);
    }

    @Test
    void aDeadlineIsOpsWorkWithItsAuditRow() throws Exception {
        createAsSam("e-1");
        long before = AccessControlledDb.count("SELECT expire_at_ms FROM orders WHERE order_id = 'e-1'");
        refused("sam", NO_EXECUTE, "CALL order_console_set_expiry('e-1', 5, 'cli', 'why', 'd')");
        assertThat(AccessControlledDb.count("SELECT expire_at_ms FROM orders WHERE order_id = 'e-1'")).isEqualTo(before);
        ok("olga", "CALL order_console_set_expiry('e-1', 500, 'cli', 'customer asked', 'payment deadline 99 -> 500')");
        assertThat(AccessControlledDb.count("SELECT expire_at_ms FROM orders WHERE order_id = 'e-1'")).isEqualTo(500);
        assertThat(rows("SELECT CONCAT(action, ' ', actor, ' ', order_id, ' ', detail) FROM audit_log"))
                .containsExactly("QUEUE_EXTEND olga e-1 payment deadline 99 -> 500; MySQL's deadline " + before + " -> 500 (epoch ms)");
    }

    @Test
    void deadLettersAreClosedOnlyThroughTheAuditedOpsProcedure() throws Exception {
        // Support may set a record aside, but never one already closed in someone's name.
        ok("sam", "INSERT INTO dead_letter (kind, order_id, reason, body, created_at_ms, state, resolved_by, resolution, open_key) "
                + "VALUES ('UNKNOWN_ACTOR', 'd-1', 'forged entry', 'e=…', 1, 'DISCARDED', 'ada', 'noise', 'outbox:b1/1-0')");
        assertThat(rows("SELECT CONCAT(state, ' ', IFNULL(resolved_by, '-')) FROM dead_letter")).containsExactly("OPEN -");
        long id = AccessControlledDb.count("SELECT id FROM dead_letter");
        refused("sam", 1142, "UPDATE dead_letter SET state = 'DISCARDED', resolved_by = 'ada' WHERE id = " + id);
        refused("olga", 1142, "UPDATE dead_letter SET state = 'DISCARDED', resolved_by = 'ada' WHERE id = " + id);
        refused("sam", NO_EXECUTE, "CALL order_console_resolve_dead_letter(" + id + ", 'DISCARDED', 'noise', 'cli', '')");
        refused("olga", REFUSED_IN_WORDS, "CALL order_console_resolve_dead_letter(" + id + ", 'OPEN', 'noise', 'cli', '')");
        refused("olga", REFUSED_IN_WORDS, "CALL order_console_resolve_dead_letter(" + id + ", 'DISCARDED', ' ', 'cli', '')");
        ok("olga", "CALL order_console_resolve_dead_letter(" + id + ", 'DISCARDED', 'looked at it', 'cli', 'letter " + id + "')");
        refused("olga", REFUSED_IN_WORDS, "CALL order_console_resolve_dead_letter(" + id + ", 'RETRIED', 'again', 'cli', '')");
        assertThat(rows("SELECT CONCAT(state, ' ', resolved_by, ' ', resolution) FROM dead_letter"))
                .containsExactly("DISCARDED olga looked at it");
        assertThat(rows("SELECT CONCAT(action, ' ', actor, ' ', order_id, ' ', reason) FROM audit_log"))
                .containsExactly("DEAD_LETTER_DISCARD olga d-1 looked at it");
    }

    @Test
    void aRepairOfARowToItsHistoryIsOpsWork() throws Exception {
        createAsSam("r-1");
        refused("sam", NO_EXECUTE, "CALL order_console_follow_history('r-1', 2)");
        ok("olga", "CALL order_console_follow_history('r-1', 2)");
    }

    /** Issue 33.4: ids differing only in case are two orders through every procedure. */
    @Test
    void idsDifferingOnlyInCaseAreTwoOrdersThroughEveryProcedure() throws Exception {
        createAsSam("A-1");
        createAsSam("a-1");
        assertThat(rows("SELECT CONCAT(order_id, ' ', actor, ' ', event_key) FROM order_history ORDER BY BINARY order_id"))
                .containsExactly("A-1 sam create:A-1", "a-1 sam create:a-1");
        ok("sam", "CALL order_console_mark_loaded(?)", "[\"a-1\"]");
        assertThat(rows("SELECT CONCAT(order_id, redis_ready) FROM orders ORDER BY BINARY order_id")).containsExactly("A-10", "a-11");
        ok("olga", "CALL order_console_set_expiry('a-1', 7, 'cli', '', '')");
        assertThat(rows("SELECT CONCAT(order_id, ' ', expire_at_ms) FROM orders ORDER BY BINARY order_id")).containsExactly("A-1 " + AccessControlledDb.count("SELECT expire_at_ms FROM orders WHERE order_id = 'A-1'"), "a-1 7");
        ok("olga", "CALL order_console_import_orders(?, ?)", "[[\"B-2\",null,2,2,1,1,null],[\"b-2\",null,1,1,1,1,null]]",
                "[[\"B-2\",null,1,1,1,\"import\",\"\",1],[\"B-2\",1,2,2,1,\"import\",\"\",1],[\"b-2\",null,1,1,1,\"import\",\"\",1]]");
        assertThat(rows("SELECT CONCAT(order_id, ' v', version) FROM orders WHERE UPPER(order_id) = 'B-2' ORDER BY BINARY order_id"))
                .containsExactly("B-2 v2", "b-2 v1");
        AccessControlledDb.root(st -> st.execute("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, "
                + "actor, source, reason, at_ms, event_key) VALUES ('A-1', 1, 2, 2, 1, 'sam', 'console', '', 5, 'k-A-1-2')"));
        ok("olga", "CALL order_console_follow_history('a-1', 2)");
        assertThat(rows("SELECT CONCAT(order_id, ' v', version) FROM orders WHERE UPPER(order_id) = 'A-1' ORDER BY BINARY order_id"))
                .as("a-1 has no version 2 in its history").containsExactly("A-1 v1", "a-1 v1");
        ok("olga", "CALL order_console_follow_history('A-1', 2)");
        assertThat(rows("SELECT CONCAT(order_id, ' v', version) FROM orders WHERE UPPER(order_id) = 'A-1' ORDER BY BINARY order_id"))
                .containsExactly("A-1 v2", "a-1 v1");
        ok("olga", "CALL order_console_record_action('cli', 'REPAIR', 'a-1', '', '')");
        assertThat(rows("SELECT order_id FROM audit_log WHERE action = 'REPAIR'")).containsExactly("a-1");
        // No conversion: an id no order can hold finds none.
        refused("olga", 1366, "CALL order_console_set_expiry('a-é', 7, 'cli', '', '')");
    }

    /** Issue 33.4: each of the procedures' statements that finds orders by id uses the primary key (EXPLAIN, 2,000 orders). */
    @Test
    void theProceduresStatementsFindOrdersThroughThePrimaryKey() throws Exception {
        AccessControlledDb.root(st -> {
            st.execute("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms) "
                    + "SELECT CONCAT('x-', seq), 1, 1, 1, 1 FROM seq_1_to_2000");
            st.execute("ANALYZE TABLE orders");
        });
        List<String> plans = new ArrayList<>();
        AccessControlledDb.root(st -> {
            st.execute("SET @p_ids = '[\"x-5\", \"X-6\"]', @p_orders = '[[\"x-7\",null,1,1,1,1,null]]', "
                    + "@p_history = '[[\"x-7\",null,1,1,1,\"create\",\"\",1]]', @p_order_id = _ascii'x-9' COLLATE ascii_bin, "
                    + "@p_version = 2, @p_expire_at_ms = 5");
            for (String sql : V40__Role_checked_procedures.statementsByOrderId()) {
                try (ResultSet rs = st.executeQuery("EXPLAIN " + sql.replaceAll("\\bp_(\\w+)", "@p_$1"))) {
                    while (rs.next()) {
                        String table = rs.getString("table");
                        if ("o".equals(table) || "orders".equals(table)) {
                            plans.add(rs.getString("key") + " " + rs.getString("type") + " <- " + sql);
                        }
                    }
                }
            }
        });
        assertThat(plans).hasSize(V40__Role_checked_procedures.statementsByOrderId().size())
                .allSatisfy(p -> assertThat(p).startsWith("PRIMARY ").matches("PRIMARY (eq_ref|const|range|ref|unique_subquery) .*"));
    }

    private static String history(String... rows) {
        StringBuilder b = new StringBuilder("[");
        for (String r : rows) {
            String[] f = r.substring(1, r.length() - 1).split(",");
            b.append(b.length() > 1 ? "," : "").append("[\"i-1\",").append(f[0]).append(',').append(f[1]).append(',').append(f[2])
                    .append(",1,\"import\",\"\",1]");
        }
        return b.append(']').toString();
    }

    private static void createAsSam(String id) throws SQLException {
        ok("sam", "CALL order_console_create_orders(?, ?)", "[[\"" + id + "\",null,1,1,@T,@T,@E]]",
                "[[\"" + id + "\",null,1,1,1,\"create\",\"\",@T,\"x\"]]");
    }

    private static void ok(String account, String sql, String... params) throws SQLException {
        try (Connection c = AccessControlledDb.connect(account); PreparedStatement ps = c.prepareStatement(sql)) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < params.length; i++) {
                // Creations are dated at the server's clock: @T stands for now, @E for a deadline a day later.
                ps.setString(i + 1, params[i].replace("@T", Long.toString(now)).replace("@E", Long.toString(now + DAY)));
            }
            ps.execute();
        }
    }

    private static void refused(String account, int code, String sql, String... params) {
        assertThatThrownBy(() -> ok(account, sql, params)).as("%s: %s", account, sql)
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(code));
    }

    private static List<String> rows(String sql) {
        List<String> out = new ArrayList<>();
        AccessControlledDb.root(st -> {
            try (ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        });
        return out;
    }
}
