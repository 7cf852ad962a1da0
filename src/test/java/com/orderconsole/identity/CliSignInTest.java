package com.orderconsole.identity;

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
        Run r = cli("pw-sam", "transition", "--id", "c-1", "--to", "PAID", "--db-user", "sam", "--reason", "paid by phone");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(asked).containsExactly("Password of database account 'sam': ");
        assertThat(r.out() + r.err()).doesNotContain("pw-sam");
        HistoryEntry last = history("c-1").get(1);
        assertThat(last.actor()).isEqualTo("sam");
        assertThat(last.to()).isEqualTo(OrderStatus.PAID);
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
            assertThat(bySupport.err()).contains("cannot migrate the orders database at").contains("denied to user 'sam'");
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
