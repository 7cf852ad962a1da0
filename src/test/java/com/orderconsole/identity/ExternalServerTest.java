package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.store.AuditEventQuery;
import com.orderconsole.store.AuditRow;
import com.orderconsole.store.ConsoleRoles;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.DatabaseAccounts;
import com.orderconsole.store.OrderRow;
import com.orderconsole.store.SqlDialect;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Set-up, sign-in, the statements that differ per server and the stamped writes of issue 25, against a server the
 * product did not start: the one given (a real MySQL 8.0.22+/8.4, or any MariaDB; docs/dba-guide.md, "Supported servers"):
 * <pre>
 * mvn -B test -Dtest=ExternalServerTest -Dmysql.url='jdbc:mysql://db:3306/?sslMode=REQUIRED' -Dmysql.user=root -Dmysql.password=…
 * </pre>
 * or, when none is given, the operating system's own MariaDB ({@link DistroMariaDb}: Debian's mariadbd, started from a
 * fresh data directory); skipped when neither exists. The URL names the server without a schema; the account is an
 * administrator. The test makes the schema {@code orders_compat_it} and the accounts {@code compat_*}, and drops them
 * afterwards. No Redis is needed.
 */
@Slow
class ExternalServerTest {
    private static final String SCHEMA = "orders_compat_it";
    private static String server;
    private static String admin;
    private static String adminPassword;

    /** Started when no server is given and the distribution's MariaDB is installed; null otherwise. */
    private static DistroMariaDb distro;

    @BeforeAll
    static void given() throws Exception {
        server = System.getProperty("mysql.url");
        admin = System.getProperty("mysql.user", "root");
        adminPassword = System.getProperty("mysql.password", "");
        if ((server == null || server.isBlank()) && DistroMariaDb.available()) {
            distro = DistroMariaDb.start();
            server = distro.url();
            admin = DistroMariaDb.ADMIN;
            adminPassword = DistroMariaDb.ADMIN_PASSWORD;
        }
        if (server == null || server.isBlank()) {
            return;
        }
        dropAll();
        run(st -> st.execute("CREATE DATABASE " + SCHEMA + " CHARACTER SET utf8mb4"));
    }

    /** Each test is reported as skipped, by name, when no server is given. */
    @BeforeEach
    void serverGiven() {
        assumeTrue(server != null && !server.isBlank(), "no -Dmysql.url given and no distribution MariaDB (/usr/sbin/mariadbd) here: the tests against a server the product did not start are skipped");
    }

    static void dropAll() throws SQLException {
        if (server == null || server.isBlank()) {
            return;
        }
        run(st -> {
            st.execute("DROP DATABASE IF EXISTS " + SCHEMA);
            for (String u : List.of("compat_sam", "compat_olga", "compat_fred", "compat_lead", "compat_lite")) {
                st.execute("DROP USER IF EXISTS '" + u + "'@'%'");
            }
            st.execute("DROP ROLE IF EXISTS compat_team");
        });
    }

    @AfterAll
    static void cleanUp() throws SQLException {
        try {
            dropAll();
        } finally {
            if (distro != null) {
                distro.close();
            }
        }
    }

    @Test
    void migrateSignInAndTheStatementsThatDifferWorkOnThisServer() throws SQLException {
        String url = schemaUrl();
        SqlDialect dialect;
        String version;
        try (Connection c = DriverManager.getConnection(server, admin, adminPassword)) {
            version = SqlDialect.version(c);
            dialect = SqlDialect.of(c);
        }
        assertThat(dialect.supports(version)).as("%s %s is at least %s", dialect.product(), version, dialect.minimumVersion()).isTrue();

        Database.Migrated m = Database.migrate(url, admin, adminPassword, Duration.ofSeconds(10));
        assertThat(m.version()).isNotBlank();

        // One account per role as the DBA guide sets it up, and one whose console role comes through a team role.
        run(st -> {
            account(st, dialect, "compat_sam", ConsoleRoles.name(Role.SUPPORT));
            account(st, dialect, "compat_olga", ConsoleRoles.name(Role.OPS));
            account(st, dialect, "compat_fred", ConsoleRoles.FOLLOWER);
            st.execute("CREATE ROLE compat_team");
            st.execute("GRANT " + ConsoleRoles.name(Role.OPS) + " TO compat_team");
            account(st, dialect, "compat_lead", "compat_team");
        });
        assertThat(DatabaseAccounts.signIn(url, "compat_sam", "pw-Compat-1", Duration.ofSeconds(5)).active()).isEqualTo(Role.SUPPORT);
        assertThat(DatabaseAccounts.signIn(url, "compat_olga", "pw-Compat-1", Duration.ofSeconds(5)).active()).isEqualTo(Role.OPS);
        assertThat(DatabaseAccounts.signIn(url, "compat_lead", "pw-Compat-1", Duration.ofSeconds(5)).active())
                .as("a console role granted to the default team role").isEqualTo(Role.OPS);

        // Issue 25: a person's writes go through the V39 procedures, which name the caller whatever the rows say.
        try (Database db = Database.connectSignedIn(url, "compat_sam", "pw-Compat-1", Duration.ofSeconds(5))) {
            assertThat(db.mayFollow()).isFalse();
            db.recordSignIn(false);
            db.inTransaction(t -> {
                assertThat(t.orders().existingIdsLocked(List.of("cx-1"))).isEmpty();
                long now = System.currentTimeMillis(); // a creation is dated at the server's clock
                t.orders().create(List.of(new OrderRow("cx-1", null, 1, 1, now, now, now + 60_000, false)), List.of(new HistoryEntry("cx-1",
                        null, OrderStatus.WAIT_PAY, 1, ResultCode.APPLIED, "someone-else", "create", "", now, "create:cx-1")));
                t.orders().markRedisReady(List.of("cx-1"));
                return null;
            });
            List<HistoryEntry> history = db.read(t -> t.history().byOrder("cx-1"));
            assertThat(history).extracting(HistoryEntry::actor).containsExactly("compat_sam");
            // Issue 33: a deadline and an ops action are ops' work, refused to support by the database itself.
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> db.inTransaction(t -> {
                t.orders().setExpiry("cx-1", 3L, new AuditRow(1L, "someone-else", "console", "QUEUE_EXTEND", "cx-1", "", ""));
                return null;
            })).hasMessageContaining("refused this operation to account 'compat_sam'");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> db.inTransaction(t -> {
                t.audit().append(new AuditRow(1L, "someone-else", "console", "REPAIR", "cx-1", "", ""));
                return null;
            })).hasMessageContaining("none of its roles grants it");
        }
        // Ops through a team role (nested: compat_team holds ops): the procedure's role check counts it.
        try (Database db = Database.connectSignedIn(url, "compat_lead", "pw-Compat-1", Duration.ofSeconds(5))) {
            db.recordSignIn(false);
            db.inTransaction(t -> {
                t.orders().setExpiry("cx-1", 3L, new AuditRow(1L, "someone-else", "console", "QUEUE_EXTEND", "cx-1", "why", "by hand"));
                t.audit().append(new AuditRow(1L, "someone-else", "console", "REPAIR", "cx-1", "", ""));
                return null;
            });
            assertThat(db.read(t -> t.orders().find("cx-1")).expireAtMs).isEqualTo(3L);
        }
        run(st -> {
            try (var rs = st.executeQuery("SELECT GROUP_CONCAT(action ORDER BY id), GROUP_CONCAT(DISTINCT actor) FROM " + SCHEMA + ".audit_log")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("QUEUE_EXTEND,REPAIR");
                assertThat(rs.getString(2)).isEqualTo("compat_lead");
            }
        });
        try (Database db = Database.connectSignedIn(url, "compat_fred", "pw-Compat-1", Duration.ofSeconds(5))) {
            assertThat(db.mayFollow()).isTrue();
            db.recordSignIn(true);
            java.util.Set<String> followers = db.read(t -> t.accounts().followers());
            assertThat(followers).containsExactly("compat_fred");
            // The upsert, twice: inserted, then replaced.
            db.inTransaction(t -> {
                t.cursors().save(7, "1-0", "e1", 1L);
                t.cursors().save(7, "2-0", "e1", 2L);
                return null;
            });
            CursorStore.Cursor saved = db.read(t -> t.cursors().read(7));
            assertThat(saved).isEqualTo(new CursorStore.Cursor("2-0", "e1"));
            // The audit EXPLAIN answers the tabular plan (MySQL 8.3+ may default to TREE or JSON).
            AuditEventQuery q = new AuditEventQuery();
            q.actor = "compat_sam";
            List<Map<String, Object>> plan = db.read(t -> t.auditEvents().explainHistory(q));
            assertThat(plan).isNotEmpty().allSatisfy(row -> assertThat(row.keySet()).contains("key", "rows", "Extra"));
        }
    }

    @Test
    void migrateByAnAccountLackingPrivilegesSaysWhatAndChangesNothing() throws SQLException {
        run(st -> {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
            st.execute("CREATE USER 'compat_lite'@'%' IDENTIFIED BY 'pw-Compat-1'");
            st.execute("GRANT SELECT, CREATE ON " + SCHEMA + ".* TO 'compat_lite'@'%'");
        });
        String lite = schemaUrl().replace("/" + SCHEMA, "/" + SCHEMA + "_lite");
        run(st -> st.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA + "_lite"));
        run(st -> st.execute("GRANT SELECT, CREATE ON " + SCHEMA + "_lite.* TO 'compat_lite'@'%'"));
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Database.migrate(lite, "compat_lite", "pw-Compat-1", Duration.ofSeconds(5)))
                    .hasMessageContaining("may not migrate").hasMessageContaining("nothing was changed")
                    .hasMessageContaining("TRIGGER on `" + SCHEMA + "_lite`");
            try (Connection c = DriverManager.getConnection(server, admin, adminPassword); Statement st = c.createStatement();
                 var rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '" + SCHEMA + "_lite'")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        } finally {
            run(st -> st.execute("DROP DATABASE " + SCHEMA + "_lite"));
        }
    }

    /**
     * Issue 33.7: the account that ran migrate is dropped. Its procedures and triggers run as it, so every console was
     * refused with the server's words, and another administrator's migrate applied nothing and fixed nothing. The
     * refusal now names the way out, and that way out works: any administrator's migrate makes them anew.
     */
    @Test
    void losingTheMigrateAccountIsRecoverableByAnotherAdministratorsMigrate() throws SQLException {
        String schema = SCHEMA + "_definer";
        String url = schemaUrl().replace("/" + SCHEMA, "/" + schema);
        SqlDialect dialect;
        try (Connection c = DriverManager.getConnection(server, admin, adminPassword)) {
            dialect = SqlDialect.of(c);
        }
        run(st -> {
            st.execute("CREATE DATABASE " + schema + " CHARACTER SET utf8mb4");
            st.execute("CREATE USER 'compat_dba'@'%' IDENTIFIED BY 'pw-Compat-1'");
            st.execute("GRANT ALL PRIVILEGES ON *.* TO 'compat_dba'@'%' WITH GRANT OPTION");
            // The roles may exist on this server already (DBA guide: the migrating account then needs them WITH ADMIN OPTION).
            for (String role : ConsoleRoles.names()) {
                st.execute("CREATE ROLE IF NOT EXISTS " + role);
                st.execute("GRANT " + role + " TO 'compat_dba'@'%' WITH ADMIN OPTION");
            }
            st.execute("CREATE ROLE IF NOT EXISTS " + ConsoleRoles.FOLLOWER);
            st.execute("GRANT " + ConsoleRoles.FOLLOWER + " TO 'compat_dba'@'%' WITH ADMIN OPTION");
        });
        try {
            Database.migrate(url, "compat_dba", "pw-Compat-1", Duration.ofSeconds(10));
            run(st -> {
                account(st, dialect, "compat_rita", ConsoleRoles.name(Role.READ_ONLY));
                st.execute("DROP USER 'compat_dba'@'%'");
            });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
                try (Database db = Database.connectSignedIn(url, "compat_rita", "pw-Compat-1", Duration.ofSeconds(5))) {
                    db.recordSignIn(false);
                }
            }).hasMessageContaining("the account that ran 'migrate'").hasMessageContaining("runs 'order-console migrate' again")
                    .hasMessageNotContaining("specified as a definer");
            Database.Migrated again = Database.migrate(url, admin, adminPassword, Duration.ofSeconds(10));
            assertThat(again.applied()).as("no migration to apply").isZero();
            try (Database db = Database.connectSignedIn(url, "compat_rita", "pw-Compat-1", Duration.ofSeconds(5))) {
                db.recordSignIn(false);
            }
            run(st -> {
                try (var rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = '" + schema
                        + "' AND DEFINER LIKE 'compat_dba@%'")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("procedures still made by the dropped account").isZero();
                }
            });
        } finally {
            run(st -> {
                st.execute("DROP DATABASE IF EXISTS " + schema);
                st.execute("DROP USER IF EXISTS 'compat_rita'@'%'");
                st.execute("DROP USER IF EXISTS 'compat_dba'@'%'");
            });
        }
    }

    private static void account(Statement st, SqlDialect dialect, String name, String role) throws SQLException {
        String account = "'" + name + "'@'%'";
        st.execute("CREATE USER " + account + " IDENTIFIED BY 'pw-Compat-1'");
        st.execute("GRANT " + role + " TO " + account);
        st.execute(dialect.setDefaultRole(role, account));
    }

    /** @return the given server URL with the test's schema in it */
    private static String schemaUrl() {
        return server.replaceFirst("^(jdbc:[^/]*//[^/?]*)/?[^?]*", "$1/" + SCHEMA);
    }

    private static void run(AccessControlledDb.SqlWork work) throws SQLException {
        try (Connection c = DriverManager.getConnection(server, admin, adminPassword); Statement st = c.createStatement()) {
            work.run(st);
        }
    }
}
