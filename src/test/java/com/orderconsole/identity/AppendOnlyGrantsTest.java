package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The history is append-only because the database says so: every console account, signed in with its own
 * password, is refused UPDATE and DELETE on the history tables; a read-only account is refused every write.
 */
@Slow
class AppendOnlyGrantsTest {
    /** Tables whose rows are never changed once written. */
    private static final List<String> HISTORY = List.of("order_history", "transition_rules");

    @BeforeAll
    static void someRows() {
        AccessControlledDb.reset();
        try (Engine admin = Engine.start(AccessControlledDb.config("ada"))) {
            admin.services().orders().create(admin.operator(), "g-1", null, Duration.ofMinutes(30));
            admin.services().follower().catchUp(Duration.ofSeconds(10));
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history")).isPositive();
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM transition_rules")).isPositive();
    }

    @Test
    void everyRoleIsRefusedUpdateAndDeleteOnTheHistory() throws SQLException {
        for (String account : AccessControlledDb.ACCOUNTS.keySet()) {
            try (Connection c = AccessControlledDb.connect(account); Statement st = c.createStatement()) {
                for (String table : HISTORY) {
                    assertRefused(st, "UPDATE " + table + " SET " + (table.equals("order_history") ? "reason" : "set_by")
                            + " = 'rewritten'", account, "UPDATE", table);
                    assertRefused(st, "DELETE FROM " + table, account, "DELETE", table);
                }
                assertThat(count(st, "SELECT COUNT(*) FROM order_history")).as(account + " still reads the history").isPositive();
            }
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE reason = 'rewritten'")).isZero();
    }

    /**
     * Issue 33.5: the marker of the Redis data set MySQL follows (V46) is written by the follower's role alone: a person
     * who could write it could make an older copy of Redis pass for the current one.
     */
    @Test
    void onlyTheFollowerWritesTheRecordedRedisMarker() throws SQLException {
        for (String account : AccessControlledDb.ACCOUNTS.keySet()) {
            try (Connection c = AccessControlledDb.connect(account); Statement st = c.createStatement()) {
                assertRefused(st, "UPDATE dataset_identity SET redis_marker = 'forged'", account, "UPDATE", "dataset_identity");
            }
        }
        try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE dataset_identity SET redis_marker = redis_marker"); // not refused
        }
        List<String> columns = new ArrayList<>();
        AccessControlledDb.root(st -> {
            try (ResultSet rs = st.executeQuery("SELECT GRANTEE, TABLE_NAME, COLUMN_NAME, PRIVILEGE_TYPE FROM information_schema.COLUMN_PRIVILEGES "
                    + "WHERE TABLE_SCHEMA = 'orders' AND GRANTEE LIKE '%order_console_%'")) {
                while (rs.next()) {
                    columns.add(rs.getString(1).replaceAll("'|@", "") + " " + rs.getString(2) + "." + rs.getString(3) + ":" + rs.getString(4));
                }
            }
        });
        assertThat(columns).containsExactly("order_console_follower dataset_identity.redis_marker:UPDATE");
    }

    @Test
    void readOnlyIsRefusedEveryWriteOnEveryTable() throws SQLException {
        try (Connection c = AccessControlledDb.connect("rita"); Statement st = c.createStatement()) {
            for (String table : tables()) {
                assertThat(count(st, "SELECT COUNT(*) FROM " + table)).isNotNegative();
                assertRefused(st, "INSERT INTO " + table + " () VALUES ()", "rita", "INSERT", table);
                assertRefused(st, "UPDATE " + table + " SET " + firstColumn(st, table) + " = " + firstColumn(st, table), "rita",
                        "UPDATE", table);
                assertRefused(st, "DELETE FROM " + table, "rita", "DELETE", table);
            }
        }
    }

    @Test
    void theGrantsAreWhatTheWritersNeedAndNoMore() {
        Map<String, Set<String>> granted = new TreeMap<>();
        AccessControlledDb.root(st -> {
            try (ResultSet rs = st.executeQuery("SELECT GRANTEE, TABLE_NAME, PRIVILEGE_TYPE FROM information_schema.TABLE_PRIVILEGES "
                    + "WHERE TABLE_SCHEMA = 'orders' AND GRANTEE LIKE '%order_console_%'")) {
                while (rs.next()) {
                    granted.computeIfAbsent(rs.getString(1).replaceAll("'|@", ""), k -> new TreeSet<>())
                            .add(rs.getString(2) + ":" + rs.getString(3));
                }
            }
            for (String other : List.of("SCHEMA_PRIVILEGES", "USER_PRIVILEGES")) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema." + other
                        + " WHERE GRANTEE LIKE '%order_console_%' AND PRIVILEGE_TYPE <> 'USAGE'")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("schema-wide or global grants to console roles").isZero();
                }
            }
        });
        Set<String> readOnly = new TreeSet<>();
        Set<String> support = new TreeSet<>(List.of("dead_letter:INSERT", "bulk_batch:INSERT",
                "bulk_batch:UPDATE", "bulk_item:INSERT", "bulk_plan:INSERT", "dataset_identity:INSERT",
                // V47: a writer of history sets its own mark back (the trigger that sets it inserts as its definer).
                "history_writer:UPDATE"));
        for (String table : tables()) {
            readOnly.add(table + ":SELECT");
        }
        assertThat(readOnly).contains("order_history:SELECT", "flyway_schema_history:SELECT", "console_account:SELECT");
        // MariaDB lists what a role holds including the roles granted to it.
        support.addAll(readOnly);
        Set<String> ops = new TreeSet<>(support);
        ops.add("transition_rules:INSERT");
        // Issue 25: no person's role writes the history, the audit log or an order; the follower's service role does.
        Set<String> follower = new TreeSet<>(ops);
        follower.addAll(List.of("order_history:INSERT", "orders:UPDATE", "sync_cursor:INSERT", "sync_cursor:UPDATE",
                "api_idempotency:INSERT", "api_idempotency:UPDATE"));
        assertThat(granted).isEqualTo(Map.of(
                "order_console_read_only", readOnly,
                "order_console_support", support,
                "order_console_ops", ops,
                "order_console_admin", ops,
                "order_console_follower", follower));
        assertThat(granted.values()).allSatisfy(p -> assertThat(p).noneMatch(x -> x.endsWith(":DELETE")));
    }

    /** Issue 33: each procedure is granted to the one role that may write what it writes, and to no other. */
    @Test
    void eachProcedureIsGrantedToItsOneRole() {
        Map<String, String> granted = new TreeMap<>();
        AccessControlledDb.root(st -> {
            try (ResultSet rs = st.executeQuery("SELECT Routine_name, User, Proc_priv FROM mysql.procs_priv WHERE Db = 'orders'")) {
                while (rs.next()) {
                    assertThat(rs.getString(3)).isEqualTo("Execute");
                    assertThat(granted.put(rs.getString(1), rs.getString(2))).as("one grantee for %s", rs.getString(1)).isNull();
                }
            }
        });
        assertThat(granted).isEqualTo(new TreeMap<>(com.orderconsole.store.ConsoleRoles.PROCEDURES));
        assertThat(granted).containsEntry("order_console_record_override", "order_console_admin")
                .containsEntry("order_console_set_expiry", "order_console_ops")
                .containsEntry("order_console_resolve_dead_letter", "order_console_ops")
                .containsEntry("order_console_create_orders", "order_console_support");
    }

    @Test
    void eachRoleIncludesTheOneBelow() {
        List<String> chain = new ArrayList<>();
        AccessControlledDb.root(st -> {
            for (Role r : Role.values()) {
                String role = "order_console_" + r.name().toLowerCase();
                try (ResultSet rs = st.executeQuery("SHOW GRANTS FOR " + role)) {
                    while (rs.next()) {
                        // MariaDB lists the grants of the roles a role includes too; keep the role's own.
                        if (rs.getString(1).matches("GRANT `order_console_\\w+` TO `" + role + "`")) {
                            chain.add(rs.getString(1));
                        }
                    }
                }
            }
        });
        assertThat(chain).containsExactly("GRANT `order_console_read_only` TO `order_console_support`",
                "GRANT `order_console_support` TO `order_console_ops`", "GRANT `order_console_ops` TO `order_console_admin`");
    }

    private static void assertRefused(Statement st, String sql, String account, String command, String table) {
        assertThatThrownBy(() -> st.executeUpdate(sql)).as(account + ": " + sql)
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1142))
                .hasMessageContaining(command + " command denied to user '" + account + "'")
                .hasMessageContaining(table);
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String firstColumn(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT * FROM " + table + " LIMIT 0")) {
            return rs.getMetaData().getColumnName(1);
        }
    }

    /** @return every table of the schema */
    private static List<String> tables() {
        List<String> tables = new ArrayList<>();
        AccessControlledDb.root(st -> {
            try (ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'orders'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
        });
        return tables;
    }
}
