package com.orderconsole.identity;

import com.orderconsole.RawRedis;
import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.store.ConsoleRoles;
import com.orderconsole.store.Database;
import com.orderconsole.store.SqlDialect;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 33.8: the forgery table. A dishonest support employee (and anyone with Redis write access) tries what the issue's
 * trial tried, against the distribution's MariaDB (Debian's mariadbd, {@link DistroMariaDb}, accounts set up as the
 * the DBA guide says) and the test Redis, with {@code serve}'s follower running under its service account: forged outbox
 * entries and direct procedure calls, each with the verdict the threat model promises (docs/design.md, "Threat model"). The
 * table is printed to target/forgery-table.txt. Skipped where the distribution's MariaDB is not installed.
 */
@Slow
class ForgeryTableTest {
    private static final String SCHEMA = "orders_forgery_it";
    private static final String PW = "pw-Forge-1";
    private static DistroMariaDb distro;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        if (!DistroMariaDb.available()) {
            return;
        }
        distro = DistroMariaDb.start();
        admin(st -> {
            st.execute("CREATE DATABASE " + SCHEMA + " CHARACTER SET utf8mb4");
        });
        url = distro.url().replaceFirst("/\\?", "/" + SCHEMA + "?");
        Database.migrate(url, DistroMariaDb.ADMIN, DistroMariaDb.ADMIN_PASSWORD, Duration.ofSeconds(10));
        admin(st -> {
            SqlDialect d = SqlDialect.of(st.getConnection());
            account(st, d, "f_sam", ConsoleRoles.name(Role.SUPPORT));
            account(st, d, "f_olga", ConsoleRoles.name(Role.OPS));
            account(st, d, "f_ada", ConsoleRoles.name(Role.ADMIN));
            account(st, d, "f_fred", ConsoleRoles.FOLLOWER);
        });
    }

    @AfterAll
    static void stop() {
        if (distro != null) {
            distro.close();
        }
    }

    /** One forged outbox entry: its order, its one-field body, and the verdict promised. */
    private record Forged(String what, String order, String body, String verdict, String words) {
    }

    /** One direct call: account, statement, parameters, and the verdict promised ("OK", or the error code refused with). */
    private record Call(String what, String account, String sql, List<String> params, String verdict) {
    }

    @Test
    void everyForgeryGetsTheVerdictTheThreatModelPromises() throws Exception {
        assumeTrue(distro != null, "the distribution's MariaDB (/usr/sbin/mariadbd) is not installed here");
        TestServers.reset(); // an empty Redis: it pairs with this schema
        List<String> table = new ArrayList<>();
        try (Engine fred = Engine.start(config("f_fred"));
             Engine sam = Engine.start(config("f_sam"));
             Engine ada = Engine.start(config("f_ada"));
             Engine olga = Engine.start(config("f_olga"))) {
            // The record before the forgeries: A waits for payment, B is paid, C finished, D cancelled, E and F wait.
            for (String id : List.of("A", "B", "C", "D", "E", "F")) {
                sam.services().orders().create(sam.operator(), id, null, Duration.ofMinutes(30));
            }
            move(sam, "B", OrderStatus.PAID);
            for (OrderStatus s : List.of(OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED)) {
                move(sam, "C", s);
            }
            move(sam, "D", OrderStatus.CANCELLED);
            fred.services().follower().runOnce(fred.operator());
            assertThat(fred.services().deadLetters().open(10)).isEmpty();
            olga.services().orders().lookup("A"); // every account has signed in now; 'mallory' never did

            List<Forged> forged = List.of(
                    new Forged("made-up actor", "A", "A,1,2,2,1\nmallory\nconsole\nx", "UNKNOWN_ACTOR", "never signed in"),
                    new Forged("no edge: WAIT_PAY -> SHIPPED", "A", "A,1,4,2,1\nf_ada\nconsole\nx", "OUT_OF_SEQUENCE", "do not allow"),
                    new Forged("no edge: PAID -> CANCELLED", "B", "B,2,6,3,1\nf_sam\nconsole\nx", "OUT_OF_SEQUENCE", "do not allow"),
                    new Forged("out of FINISHED, no override", "C", "C,5,2,6,1\nf_sam\ncli\nx", "OUT_OF_SEQUENCE", "FINISHED is terminal"),
                    new Forged("out of FINISHED in the admin's name", "C", "C,5,2,6,1\nf_ada\ncli\nx", "OUT_OF_SEQUENCE", "no override is recorded"),
                    new Forged("out of CANCELLED in the admin's name", "D", "D,6,2,3,1\nf_ada\ncli\nx", "OUT_OF_SEQUENCE", "no override is recorded"),
                    new Forged("sweeper cancel 30 min early", "A", "A,1,6,2,1\ncancel-sweeper\nsweeper\npayment timeout",
                            "OUT_OF_SEQUENCE", "before the payment deadline"),
                    new Forged("sweeper cancelling a paid order", "B", "B,2,6,3,1\ncancel-sweeper\nsweeper\nx", "UNKNOWN_ACTOR",
                            "whose only move is WAIT_PAY"),
                    new Forged("sweeper 'attempt' at another move", "E", "E,1,2,1,-3\ncancel-sweeper\nsweeper\nx", "UNKNOWN_ACTOR",
                            "whose only move is WAIT_PAY"),
                    new Forged("version jump", "A", "A,1,2,5,1\nf_sam\nconsole\nx", "OUT_OF_SEQUENCE", "does not follow MySQL's version 1"),
                    new Forged("wrong from-status", "A", "A,2,3,2,1\nf_sam\nconsole\nx", "OUT_OF_SEQUENCE", "but MySQL has it WAIT_PAY"),
                    new Forged("refused attempt ahead of MySQL", "A", "A,1,2,9,-3\nf_sam\nconsole\nx", "OUT_OF_SEQUENCE", "a refused move at version 9"),
                    new Forged("refused attempt from a wrong status", "A", "A,3,4,1,0\nf_sam\nconsole\nx", "OUT_OF_SEQUENCE", "a refused move from WAIT_SHIP"),
                    new Forged("invented order", "GHOST", "GHOST,1,2,2,1\nf_sam\nconsole\nx", "UNKNOWN_ORDER", "neither MySQL nor Redis"),
                    new Forged("not an outcome", "A", "not an outcome at all", "OUTBOX_ENTRY", "cannot be read"),
                    new Forged("status 7", "A", "A,1,7,2,1\nf_sam\nconsole\nx", "OUTBOX_ENTRY", "cannot be read"),
                    new Forged("version 02", "A", "A,1,2,02,1\nf_sam\nconsole\nx", "OUTBOX_ENTRY", "cannot be read"),
                    new Forged("version +2", "A", "A,1,2,+2,1\nf_sam\nconsole\nx", "OUTBOX_ENTRY", "cannot be read"),
                    new Forged("version -0", "A", "A,1,2,-0,1\nf_sam\nconsole\nx", "OUTBOX_ENTRY", "cannot be read"),
                    new Forged("full-width digit", "A", "A,1,2,\uFF12,1\nf_sam\nconsole\nx", "OUTBOX_ENTRY", "cannot be read"),
                    new Forged("actor longer than its column", "A", "A,1,2,2,1\n" + "m".repeat(200) + "\nconsole\nx", "OUTBOX_ENTRY", ""),
                    new Forged("replay of B's payment under a new id", "B", "B,1,2,2,1\nf_sam\nconsole\n", "IGNORED", ""),
                    new Forged("another status at B's version 2", "B", "B,1,6,2,1\nf_sam\nconsole\nx", "HISTORY_CONFLICT", "is PAID in MySQL's history"),
                    // What a Redis writer can still do (threat model: limit Redis writers): a move in sequence, on an edge, in
                    // the name of someone who signed in.
                    new Forged("in sequence, an edge, a real name", "F", "F,1,2,2,1\nf_sam\nconsole\nx", "APPLIED", ""));
            Map<String, Forged> byStreamId = new LinkedHashMap<>();
            try (RawRedis raw = new RawRedis()) {
                for (Forged f : forged) {
                    int b = RedisKeys.bucket(f.order());
                    byStreamId.put(b + "/" + raw.cmd().xadd(RedisKeys.outbox(b), Map.of("e", f.body())), f);
                }
                // Dated after A's deadline by an explicit stream id in the future: last, it moves its bucket's last id on
                // (the script's entries after it still take Redis' clock).
                long deadline = sql("SELECT expire_at_ms FROM orders WHERE order_id = 'E'");
                Forged future = new Forged("sweeper cancel dated in the future", "E", "E,1,6,2,1\ncancel-sweeper\nsweeper\nx",
                        "OFF_CLOCK", "after Redis' clock when the follower read it");
                byStreamId.put(RedisKeys.bucket("E") + "/" + raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("E")),
                        new io.lettuce.core.XAddArgs().id((deadline + 1) + "-0"), Map.of("e", future.body())), future);
            }
            fred.services().follower().runOnce(fred.operator());
            Map<String, DeadLetter> letters = new LinkedHashMap<>();
            for (DeadLetter d : fred.services().deadLetters().open(200)) {
                letters.put(d.bucket() + "/" + d.entryId(), d);
            }
            byStreamId.forEach((key, f) -> {
                DeadLetter d = letters.get(key);
                String[] bucketAndId = key.split("/");
                long rows = sql("SELECT COUNT(*) FROM order_history WHERE event_key LIKE 'b" + bucketAndId[0] + "/%/" + bucketAndId[1] + "'");
                String got = d != null ? d.kind() : rows == 1 ? "APPLIED" : "IGNORED";
                table.add(String.format("%-40s %-17s %-17s %s", f.what(), f.verdict(), got, d == null ? "" : d.reason()));
                assertThat(got).as("%s: %s", f.what(), d).isEqualTo(f.verdict());
                if (d != null) {
                    assertThat(d.reason()).as(f.what()).contains(f.words());
                }
            });

            // Direct calls as a plain client would make them, after the support employee read the procedures' names.
            // Dated as the front ends date a creation: @T is the server's now, @E a deadline a day later.
            String oneWaitPay = "[[\"N-1\",null,1,1,@T,@T,@E]]";
            String itsRow = "[[\"N-1\",null,1,1,1,\"create\",\"\",@T,\"x\"]]";
            List<Call> calls = List.of(
                    new Call("support records an override", "f_sam", "CALL order_console_record_override('cli', 'C', 'reopen', 'v5 to v6 PAID')", List.of(), "1370"),
                    new Call("ops records an override", "f_olga", "CALL order_console_record_override('cli', 'C', 'reopen', 'v5 to v6 PAID')", List.of(), "1370"),
                    new Call("admin's OVERRIDE through record_action", "f_ada", "CALL order_console_record_action('cli', 'OVERRIDE', 'C', 'r', 'v5 to v6 PAID')", List.of(), "1644"),
                    new Call("support records a repair", "f_sam", "CALL order_console_record_action('cli', 'REPAIR', 'C', 'r', '')", List.of(), "1370"),
                    new Call("support creates a FINISHED v5 order", "f_sam", "CALL order_console_create_orders(?, ?)",
                            List.of("[[\"N-2\",null,5,5,1,1,null]]", "[[\"N-2\",null,1,1,1,\"c\",\"\",1,\"x\"],[\"N-2\",1,2,2,1,\"c\",\"\",1,\"x\"],"
                                    + "[\"N-2\",2,3,3,1,\"c\",\"\",1,\"x\"],[\"N-2\",3,4,4,1,\"c\",\"\",1,\"x\"],[\"N-2\",4,5,5,1,\"c\",\"\",1,\"x\"]]"), "1644"),
                    new Call("support plants history for a later id", "f_sam", "CALL order_console_create_orders(?, ?)",
                            List.of(oneWaitPay, "[[\"N-1\",null,1,1,1,\"c\",\"\",1,\"x\"],[\"LATER-1\",null,1,1,1,\"c\",\"\",1,\"x\"]]"), "1644"),
                    new Call("support imports history", "f_sam", "CALL order_console_import_orders(?, ?)", List.of(oneWaitPay, itsRow), "1370"),
                    new Call("ops imports history with a gap", "f_olga", "CALL order_console_import_orders(?, ?)",
                            List.of("[[\"N-3\",null,3,3,1,1,null]]", "[[\"N-3\",null,1,1,1,\"i\",\"\",1],[\"N-3\",2,3,3,1,\"i\",\"\",1]]"), "1644"),
                    new Call("support copies a Redis-only order", "f_sam", "CALL order_console_copy_order(?, ?)",
                            List.of("[[\"N-4\",null,5,5,1,1,null]]", "[[\"N-4\",null,5,5,1,\"r\",\"\",1]]"), "1370"),
                    new Call("support moves a payment deadline", "f_sam", "CALL order_console_set_expiry('A', 1, 'cli', '', '')", List.of(), "1370"),
                    new Call("support brings a row to its history", "f_sam", "CALL order_console_follow_history('A', 2)", List.of(), "1370"),
                    new Call("support closes a dead letter by UPDATE", "f_sam", "UPDATE dead_letter SET state = 'DISCARDED', resolved_by = 'f_ada'", List.of(), "1142"),
                    new Call("ops closes a dead letter by UPDATE", "f_olga", "UPDATE dead_letter SET state = 'DISCARDED', resolved_by = 'f_ada'", List.of(), "1142"),
                    new Call("support closes a dead letter by procedure", "f_sam", "CALL order_console_resolve_dead_letter(1, 'DISCARDED', 'noise', 'cli', '')", List.of(), "1370"),
                    new Call("support writes a history row", "f_sam", "INSERT INTO order_history (order_id, from_status, to_status, version, result_code, "
                            + "actor, source, reason, at_ms, event_key) VALUES ('A', 1, 2, 2, 1, 'f_ada', 'console', '', 1, 'k')", List.of(), "1142"),
                    new Call("support writes an audit row", "f_sam", "INSERT INTO audit_log (at_ms, actor, source, action, order_id) "
                            + "VALUES (1, 'f_ada', 'cli', 'OVERRIDE', 'C')", List.of(), "1142"),
                    new Call("support updates an order", "f_sam", "UPDATE orders SET status = 2, version = 6 WHERE order_id = 'C'", List.of(), "1142"),
                    new Call("support marks itself the follower", "f_sam", "CALL order_console_follower_sign_in()", List.of(), "1370"),
                    new Call("support creates N-1 (WAIT_PAY v1, its row)", "f_sam", "CALL order_console_create_orders(?, ?)", List.of(oneWaitPay, itsRow), "OK"),
                    new Call("support creates n-1 (differs in case)", "f_sam", "CALL order_console_create_orders(?, ?)",
                            List.of(oneWaitPay.replace("N-1", "n-1"), itsRow.replace("N-1", "n-1")), "OK"));
            for (Call c : calls) {
                String got = call(c);
                table.add(String.format("%-40s %-17s %-17s %s", c.what(), c.verdict(), got, c.account()));
                assertThat(got).as(c.what()).isEqualTo(c.verdict());
            }
        }
        // The record is what it was, but for F's payment (in sequence, an edge, a real name) and the two new orders.
        assertThat(sql("SELECT status * 100 + version FROM orders WHERE order_id = 'A'")).isEqualTo(101);
        assertThat(sql("SELECT status * 100 + version FROM orders WHERE order_id = 'B'")).isEqualTo(202);
        assertThat(sql("SELECT status * 100 + version FROM orders WHERE order_id = 'C'")).isEqualTo(505);
        assertThat(sql("SELECT status * 100 + version FROM orders WHERE order_id = 'D'")).isEqualTo(602);
        assertThat(sql("SELECT status * 100 + version FROM orders WHERE order_id = 'F'")).isEqualTo(202);
        assertThat(sql("SELECT COUNT(*) FROM orders WHERE order_id IN ('N-1', 'n-1')")).isEqualTo(2);
        assertThat(sql("SELECT COUNT(*) FROM order_history WHERE order_id IN ('N-2', 'N-3', 'N-4', 'LATER-1', 'GHOST')")).isZero();
        assertThat(sql("SELECT COUNT(*) FROM audit_log")).isZero();
        assertThat(table).hasSizeGreaterThanOrEqualTo(30);
        java.nio.file.Files.write(java.nio.file.Path.of("target", "forgery-table.txt"), table);
    }

    private static void move(Engine e, String id, OrderStatus to) {
        assertThat(e.services().transitions().transition(e.operator(), TransitionRequest.of(id, to, "console", "")).applied()).isTrue();
    }

    private static EngineConfig config(String account) {
        return EngineConfig.embeddedDefault().withServers(TestServers.redis().uri(), url, account, PW)
                .withBackgroundJobs(null, null).withCommandTimeout(Duration.ofSeconds(5));
    }

    private static String call(Call c) {
        try (Connection conn = DriverManager.getConnection(url, c.account(), PW); PreparedStatement ps = conn.prepareStatement(c.sql())) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < c.params().size(); i++) {
                ps.setString(i + 1, c.params().get(i).replace("@T", Long.toString(now)).replace("@E", Long.toString(now + 86_400_000L)));
            }
            ps.execute();
            return "OK";
        } catch (SQLException e) {
            return Integer.toString(e.getErrorCode());
        }
    }

    private static long sql(String query) {
        long[] n = new long[1];
        try {
            admin(st -> {
                try (ResultSet rs = st.executeQuery(query)) {
                    rs.next();
                    n[0] = rs.getLong(1);
                }
            });
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return n[0];
    }

    private static void account(Statement st, SqlDialect dialect, String name, String role) throws SQLException {
        String account = "'" + name + "'@'%'";
        st.execute("CREATE USER " + account + " IDENTIFIED BY '" + PW + "'");
        st.execute("GRANT " + role + " TO " + account);
        st.execute(dialect.setDefaultRole(role, account));
    }

    private static void admin(AccessControlledDb.SqlWork work) throws SQLException {
        String where = url != null ? url : distro.url();
        try (Connection c = DriverManager.getConnection(where, DistroMariaDb.ADMIN, DistroMariaDb.ADMIN_PASSWORD); Statement st = c.createStatement()) {
            work.run(st);
        }
    }
}
