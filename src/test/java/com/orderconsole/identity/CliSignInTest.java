package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.cli.ExitCode;
import com.orderconsole.cli.OrderCli;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line signs in with --db-user and a password from a variable or the terminal. */
@Slow
class CliSignInTest {
    private final List<String> asked = new ArrayList<>();

    record Run(int code, String out, String err) {
    }

    @BeforeEach
    void anOrder() {
        AccessControlledDb.reset();
        try (Engine admin = Engine.start(AccessControlledDb.config("ada"))) {
            admin.services().orders().create(admin.operator(), "c-1", null, Duration.ofMinutes(30));
            admin.services().follower().catchUp(Duration.ofSeconds(10));
        }
    }

    @Test
    void theHistoryRecordsTheAccountThatSignedInAtTheTerminal() {
        Run r;
        // The follower runs under serve's service account (issue 25), here in the same JVM.
        try (Engine serve = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER)
                .withBackgroundJobs(null, Duration.ofMillis(50)))) {
            r = cli("pw-sam", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam", "--reason", "paid by phone");
        }
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(asked).containsExactly("Password of database account 'sam': ");
        assertThat(r.out() + r.err()).doesNotContain("pw-sam");
        HistoryEntry last = history("c-1").get(1);
        assertThat(last.actor()).isEqualTo("sam");
        assertThat(last.to()).isEqualTo(OrderStatus.PAID);
    }

    /** Issue 25: serve is where the follower runs; a person's account would leave every move waiting in Redis unseen. */
    @Test
    void serveNeedsTheFollowerRoleAndAPersonIsToldToWaitForIt() {
        Run serve = cli("pw-olga", "serve", "--db-user", "olga");
        assertThat(serve.code()).isEqualTo(1);
        assertThat(serve.err()).contains("account olga does not hold order_console_follower");
        Run follower = cli("pw-sam", "follower", "--db-user", "sam");
        assertThat(follower.code()).as(follower.err()).isNotZero();
        assertThat(follower.err()).contains("sam may not run the MySQL follower").contains("'serve'");
    }

    @Test
    void thePasswordCanComeFromAVariableAndIsNeverPrinted() {
        // PATH is set in every environment; account 'pat' has its value as password.
        Run r = cli(null, "show", "--id", "c-1", "--db-user", AccessControlledDb.PATH_PASSWORD, "--db-password-env", "PATH");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(asked).isEmpty();
        assertThat(r.out() + r.err()).doesNotContain(System.getenv("PATH"));
    }

    @Test
    void selfDeclaredNamesAreRefusedWithExternalServers() {
        Run actor = cli("pw-sam", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam", "--actor", "payment-gw");
        assertThat(actor.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(actor.err()).contains("--actor is accepted on the local embedded servers only; with --jdbc the history "
                + "records the database account you sign in with (--db-user sam)");
        Run operator = cli("pw-sam", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam", "--operator", "boss");
        assertThat(operator.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(operator.err()).contains("--operator is no longer accepted: the history records the database account "
                + "you sign in with (--db-user)");
        assertThat(history("c-1")).hasSize(1);
    }

    @Test
    void refusedSignInsExitWithTheReasonAndChangeNothing() {
        String where = "the database at 127.0.0.1:" + AccessControlledDb.server().port() + "/orders";
        assertFails(cli("wrong", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam"), ExitCode.FAILED.code(),
                "error: " + where + " refused account 'sam': wrong password, or no such account");
        assertFails(cli("pw-x", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "xavier"), ExitCode.FAILED.code(),
                "refused account 'xavier': wrong password, or no such account");
        assertFails(cli("pw-sam", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam", "--role", "admin"),
                ExitCode.FAILED.code(), "error: role admin is more than database account 'sam' holds (support); a role can only be lowered");
        assertFails(cli("pw-nora", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "nora"), ExitCode.FAILED.code(),
                "error: database account 'nora' holds none of the console roles");
        assertFails(cli(null, "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam"), ExitCode.USAGE.code(),
                "no password for database account 'sam': name an environment variable holding it with --db-password-env VAR, "
                        + "or run at a terminal to be asked");
        assertFails(cli(null, "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam", "--db-password-env",
                "ORDER_CONSOLE_TEST_UNSET_VARIABLE"), ExitCode.USAGE.code(), "ORDER_CONSOLE_TEST_UNSET_VARIABLE (from --db-password-env) is not set");
        assertThat(history("c-1")).hasSize(1);
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'c-1'")).isEqualTo(OrderStatus.WAIT_PAY.code());
    }

    @Test
    void aLoweredRoleIsEnforced() {
        Run r = cli("pw-ada", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "ada", "--role", "read_only");
        assertThat(r.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(r.err()).contains("ada (read_only) may not");
    }

    @Test
    void theConsoleGetsTheCheckedAccountOrLeavesTheAskingToItsDialog() {
        List<Object[]> opened = new ArrayList<>();
        assertThat(run(null, (config, who) -> opened.add(new Object[]{config, who}), "--db-user", AccessControlledDb.PATH_PASSWORD,
                "--db-password-env", "PATH").code()).isZero();
        assertThat(run(null, (config, who) -> opened.add(new Object[]{config, who}), "--db-user", "sam").code()).isZero();
        assertThat(opened.get(0)[1]).isEqualTo(new Operator(AccessControlledDb.PATH_PASSWORD, Role.SUPPORT));
        assertThat(opened.get(1)[1]).as("the dialog asks").isNull();
        EngineConfig dialog = (EngineConfig) opened.get(1)[0];
        assertThat(dialog.signInRequired()).isTrue();
        assertThat(dialog.dbUser()).isEqualTo("sam");
        assertThat(dialog.dbPassword()).isEmpty();
        assertThat(asked).as("the console never asks at the terminal").isEmpty();
    }

    @Test
    void aDatabaseAdministratorMigratesANewSchemaForTheConsoleAccounts() {
        String url = AccessControlledDb.server().jdbcUrl().replace("/orders?", "/orders_new?");
        AccessControlledDb.root(st -> {
            st.execute("CREATE DATABASE orders_new");
            st.execute("GRANT SELECT ON orders_new.* TO 'sam'@'%'");
        });
        try {
            Run before = cliAt(url, "pw-sam", "stats", "--db-user", "sam");
            assertThat(before.code()).isEqualTo(ExitCode.FAILED.code());
            assertThat(before.err()).contains("/orders_new lacks").contains("V20 Console roles")
                    .contains("a database administrator applies them with 'order-console migrate'");

            Run bySupport = cliAt(url, "pw-sam", "migrate", "--db-user", "sam");
            assertThat(bySupport.code()).isEqualTo(ExitCode.FAILED.code());
            assertThat(bySupport.err()).contains("account 'sam' may not migrate the orders database at")
                    .contains("nothing was changed").contains("CREATE on `orders_new`: the migrations create tables");
            assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'orders_new'")).isZero();

            Run byAdmin = cliAt(url, "", "migrate", "--db-user", "root");
            assertThat(byAdmin.code()).as(byAdmin.err()).isZero();
            assertThat(byAdmin.out()).containsPattern("Applied \\d+ migrations; the schema is at version \\d+\\.");

            // A new schema is a new system's record: the Redis paired with the other schema would be refused
            // (issue 11); here it starts over as this system's Redis.
            try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
                raw.cmd().del(com.orderconsole.redis.RedisKeys.DATASET);
            }
            Run after = cliAt(url, "pw-sam", "stats", "--db-user", "sam", "--json");
            assertThat(after.code()).as(after.err()).isZero();
        } finally {
            AccessControlledDb.root(st -> {
                st.execute("REVOKE SELECT ON orders_new.* FROM 'sam'@'%'");
                st.execute("DROP DATABASE orders_new");
            });
        }
    }

    @Test
    void migrateNamesEachPrivilegeItLacksAndChangesNothing() {
        String url = AccessControlledDb.server().jdbcUrl().replace("/orders?", "/orders_lite?");
        AccessControlledDb.root(st -> {
            st.execute("CREATE DATABASE orders_lite");
            st.execute("CREATE USER 'dba_lite'@'%' IDENTIFIED BY 'pw-lite'");
            // What a DBA account had before triggers and procedures came: everything else migrate needs.
            st.execute("GRANT SELECT, INSERT, UPDATE, CREATE, ALTER, INDEX ON orders_lite.* TO 'dba_lite'@'%' WITH GRANT OPTION");
            st.execute("GRANT CREATE USER ON *.* TO 'dba_lite'@'%'");
            st.execute("GRANT SELECT ON mysql.* TO 'dba_lite'@'%'");
        });
        try {
            long users = AccessControlledDb.count("SELECT COUNT(*) FROM mysql.user");
            Run lacking = cliAt(url, "pw-lite", "migrate", "--db-user", "dba_lite");
            assertThat(lacking.code()).isEqualTo(ExitCode.FAILED.code());
            assertThat(lacking.err()).contains("account 'dba_lite' may not migrate the orders database at 127.0.0.1:")
                    .contains("nothing was changed")
                    .contains("TRIGGER on `orders_lite`: the migrations create triggers")
                    .contains("CREATE ROUTINE on `orders_lite`: the migrations create stored procedures")
                    .contains("ALTER ROUTINE on `orders_lite`").contains("EXECUTE on `orders_lite`")
                    .contains("ADMIN OPTION on role order_console_read_only: the role exists already and MariaDB lets only "
                            + "its administrators grant it (GRANT order_console_read_only TO 'dba_lite'@'%' WITH ADMIN OPTION)")
                    .contains("ADMIN OPTION on role order_console_admin")
                    .doesNotContain("CREATE on `orders_lite`").doesNotContain("GRANT OPTION on").doesNotContain("CREATE USER ON")
                    .doesNotContain("Exception");
            assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'orders_lite'"))
                    .as("not even Flyway's record").isZero();
            assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM mysql.user")).as("no role created").isEqualTo(users);

            AccessControlledDb.root(st -> {
                st.execute("GRANT TRIGGER, CREATE ROUTINE, ALTER ROUTINE, EXECUTE ON orders_lite.* TO 'dba_lite'@'%'");
                for (String role : com.orderconsole.store.ConsoleRoles.names()) {
                    st.execute("GRANT " + role + " TO 'dba_lite'@'%' WITH ADMIN OPTION");
                }
            });
            Run granted = cliAt(url, "pw-lite", "migrate", "--db-user", "dba_lite");
            assertThat(granted.code()).as(granted.err()).isZero();
            assertThat(granted.out()).containsPattern("Applied \\d+ migrations; the schema is at version \\d+\\.");
        } finally {
            AccessControlledDb.root(st -> {
                st.execute("DROP USER 'dba_lite'@'%'");
                st.execute("DROP DATABASE orders_lite");
            });
        }
    }

    @Test
    void aFailedMigrationIsRepairedByMigrateRepairAndThenApplied() {
        String url = AccessControlledDb.server().jdbcUrl().replace("/orders?", "/orders_rep?");
        AccessControlledDb.root(st -> st.execute("CREATE DATABASE orders_rep"));
        try {
            // The schema one migration short, and that migration recorded as failed before it changed anything,
            // as Flyway leaves it on MySQL/MariaDB (DDL commits as it goes, so nothing is rolled back).
            org.flywaydb.core.Flyway.configure().dataSource(url, "root", "")
                    .locations("classpath:db/migration", "classpath:com/orderconsole/store/migration").target("36").load().migrate();
            AccessControlledDb.root(st -> st.execute("INSERT INTO orders_rep.flyway_schema_history (installed_rank, version, "
                    + "description, type, script, checksum, installed_by, execution_time, success) SELECT MAX(installed_rank) + 1, "
                    + "'37', 'orders without age index', 'SQL', 'V37__orders_without_age_index.sql', 0, 'root', 5, 0 "
                    + "FROM orders_rep.flyway_schema_history"));

            Run blocked = cliAt(url, "", "migrate", "--db-user", "root");
            assertThat(blocked.code()).isEqualTo(ExitCode.FAILED.code());
            assertThat(blocked.err()).contains("failed migration").contains("run 'order-console migrate --repair'");

            Run repaired = cliAt(url, "", "migrate", "--repair", "--db-user", "root");
            assertThat(repaired.code()).as(repaired.err()).isZero();
            assertThat(repaired.out()).contains("Failed entries removed: V37 orders without age index.").contains("Run migrate again.");
            Run again = cliAt(url, "", "migrate", "--repair", "--db-user", "root");
            assertThat(again.out()).contains("The migration record needed no repair.");

            Run migrated = cliAt(url, "", "migrate", "--db-user", "root");
            assertThat(migrated.code()).as(migrated.err()).isZero();
            assertThat(migrated.out()).containsPattern("Applied \\d+ migrations?; the schema is at version \\d+\\.");
            assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'orders_rep' "
                    + "AND INDEX_NAME = 'idx_orders_since'")).as("V37 ran").isZero();
        } finally {
            AccessControlledDb.root(st -> st.execute("DROP DATABASE orders_rep"));
        }
    }

    private static void assertFails(Run r, int code, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(code);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
    }

    private static List<HistoryEntry> history(String id) {
        try (Engine admin = Engine.start(AccessControlledDb.config("ada"))) {
            return admin.services().orders().lookup(id).history();
        }
    }

    /** Runs a command against the access-controlled database; the prompt answers {@code typed} (null: no terminal). */
    private Run cli(String typed, String... args) {
        return cliAt(AccessControlledDb.server().jdbcUrl(), typed, args);
    }

    private Run cliAt(String jdbcUrl, String typed, String... args) {
        List<String> all = new ArrayList<>(List.of("--redis", TestServers.redis().uri(), "--jdbc", jdbcUrl));
        all.addAll(List.of(args));
        return run(typed, null, all.toArray(String[]::new));
    }

    private Run run(String typed, java.util.function.BiConsumer<EngineConfig, Operator> console, String... args) {
        List<String> all = new ArrayList<>();
        if (console != null) {
            all.addAll(List.of("--redis", TestServers.redis().uri(), "--jdbc", AccessControlledDb.server().jdbcUrl()));
        }
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), console, text -> {
                    asked.add(text);
                    return typed == null ? null : typed.toCharArray();
                });
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
