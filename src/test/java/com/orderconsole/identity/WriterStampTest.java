package com.orderconsole.identity;

import com.orderconsole.RawRedis;
import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.transition.TransitionService;
import org.junit.jupiter.api.Test;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 25.1: MySQL's history never records an actor who did not act, and the database enforces it. No person's role
 * writes the history, the audit log or an order directly; the V39 procedures stamp the calling login as the actor; the
 * follower runs under its own service role; the audit view flags a row naming an actor other than its writer outside
 * the follower's work; the follower sets aside entries naming someone who never signed in. Against MariaDB with grant
 * tables and one account per role, each signed in with its own password, as a plain client would.
 */
@Slow
class WriterStampTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** The hand trial of the issue: a plain client signed in as a person writes rows that claim another acted. */
    @Test
    void noPersonsAccountWritesTheHistoryTheAuditLogOrAnOrderDirectly() throws Exception {
        seed();
        for (String account : List.of("sam", "olga", "ada")) {
            try (Connection c = AccessControlledDb.connect(account); Statement st = c.createStatement()) {
                refused(() -> st.execute("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) "
                        + "VALUES (1, 'ada', 'console', 'REPAIR', 'w-1', 'forged', '')"), account, "audit_log");
                refused(() -> st.execute("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, "
                        + "source, reason, at_ms, event_key) VALUES ('w-1', 1, 2, 2, 1, 'ada', 'console', 'forged', 2, 'hand-1')"),
                        account, "order_history");
                refused(() -> st.execute("UPDATE orders SET status = 5, version = 9 WHERE order_id = 'w-1'"), account, "orders");
                refused(() -> st.execute("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms) "
                        + "VALUES ('w-x', 5, 5, 1, 1)"), account, "orders");
                refused(() -> st.execute("INSERT INTO console_account (login, follower, first_at_ms) VALUES ('mallory', 1, 1)"),
                        account, "console_account");
                // The procedure names no actor: the database writes this login. Recording an action is ops' (issue 33).
                if (account.equals("sam")) {
                    assertThatThrownBy(() -> st.execute("CALL order_console_record_action('console', 'REPAIR', 'w-1', 'by hand', '')"))
                            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1370));
                    st.execute("CALL order_console_sign_in()");
                } else {
                    try (CallableStatement cs = c.prepareCall("{CALL order_console_record_action('console', 'REPAIR', 'w-1', 'by hand', '')}")) {
                        cs.execute();
                    }
                }
                // The follower's sign-in is the service role's alone.
                assertThatThrownBy(() -> st.execute("CALL order_console_follower_sign_in()")).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getErrorCode()).isEqualTo(1370));
            }
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log WHERE reason = 'forged'")).isZero();
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log WHERE reason = 'by hand' AND actor = "
                + "SUBSTRING_INDEX(written_by, '@', 1) AND actor IN ('olga', 'ada')")).isEqualTo(2);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM console_account WHERE follower = 1 AND login <> 'fred'")).isZero();
        // Creating orders names the caller in the history whatever the entries say, and adds nothing to an existing order.
        try (Connection c = AccessControlledDb.connect("sam");
             CallableStatement cs = c.prepareCall("{CALL order_console_create_orders(?, ?)}")) {
            // Issue 33: a call holding anything but new WAIT_PAY orders with their creation row is refused whole.
            String t = Long.toString(System.currentTimeMillis()); // creations are dated at the server's clock
            cs.setString(1, "[[\"w-2\",null,1,1," + t + "," + t + ",null],[\"w-1\",null,5,9," + t + "," + t + ",null]]");
            cs.setString(2, "[[\"w-2\",null,1,1,1,\"create\",\"\"," + t + ",\"k-w-2\"],[\"w-1\",4,5,9,1,\"create\",\"\"," + t + ",\"k-w-1-9\"]]");
            assertThatThrownBy(cs::execute).hasMessageContaining("support creates WAIT_PAY orders at version 1");
            cs.setString(1, "[[\"w-2\",null,1,1," + t + "," + t + ",null],[\"w-1\",null,1,1," + t + "," + t + ",null]]");
            cs.setString(2, "[[\"w-2\",null,1,1,1,\"create\",\"\"," + t + ",\"k-w-2\"],[\"w-1\",null,1,1,1,\"create\",\"\"," + t + ",\"k-w-1-9\"]]");
            cs.execute();
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'w-2' AND actor = 'sam'")).isEqualTo(1);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE event_key IN ('k-w-1-9', 'k-w-2')"))
                .as("the procedure chooses the event key").isZero();
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'w-1'")).isEqualTo(2);
        assertThat(AccessControlledDb.count("SELECT version FROM orders WHERE order_id = 'w-1'")).isEqualTo(2);
    }

    /** A person's console applies nothing; serve's account does, and its rows in other people's names are not flagged. */
    @Test
    void theFollowerRunsUnderItsServiceAccountAndOnlyItsRowsNameOthers() throws Exception {
        seed();
        try (Engine sam = Engine.start(AccessControlledDb.config("sam"))) {
            assertThat(sam.services().follower().appliesHere()).isFalse();
            assertThatThrownBy(() -> sam.services().follower().runOnce(sam.operator())).isInstanceOf(PermissionDeniedException.class)
                    .hasMessageContaining("order_console_follower").hasMessageContaining("'serve'");
        }
        AccessControlledDb.root(st -> st.execute("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, "
                + "actor, source, reason, at_ms, event_key) VALUES ('w-1', 2, 3, 3, 1, 'ada', 'console', 'by root', 3, 'root-1')"));
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            List<AuditEvent> rows = ada.services().audit().page(AuditFilter.all(), null, 100).rows();
            assertThat(rows).filteredOn(e -> "w-1".equals(e.orderId()) && e.kind() == AuditEvent.Kind.TRANSITION).hasSize(3)
                    .allSatisfy(e -> {
                        assertThat(e.writtenBy()).isNotNull();
                        // sam's creation (sam's session), sam's payment (the follower's), the DBA's row naming ada.
                        assertThat(e.actorUnlike()).as("%s", e).isEqualTo("by root".equals(e.reason()));
                    });
            assertThat(rows).filteredOn(e -> e.version() != null && e.version() == 2 && "w-1".equals(e.orderId()))
                    .singleElement().satisfies(e -> {
                        assertThat(e.actor()).isEqualTo("sam");
                        assertThat(e.writtenBy()).startsWith("fred@");
                    });
        }
    }

    /**
     * An outbox entry XADDed by hand naming someone who never signed in, or the cancel sweeper doing another move,
     * becomes a dead letter; one naming a person who did sign in, in sequence, is applied (what a Redis writer can do:
     * docs/design.md, threat model).
     */
    @Test
    void anEntryNamingSomeoneWhoNeverSignedInIsSetAside() throws Exception {
        seed();
        int bucket = RedisKeys.bucket("w-1");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("e", "w-1,2,3,3,1\nmallory\nconsole\nhand"));
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("e", "w-1,2,6,3,1\ncancel-sweeper\nsweeper\nhand"));
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("e", "w-1,2,3,3,1\nsam\nconsole\nhand"));
        }
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER))) {
            fred.services().follower().runOnce(fred.operator());
            assertThat(fred.services().deadLetters().open(10)).filteredOn(d -> d.kind().equals("UNKNOWN_ACTOR")).hasSize(2)
                    .anySatisfy(d -> assertThat(d.reason()).contains("'mallory' never signed in"))
                    .anySatisfy(d -> assertThat(d.reason()).contains("cancel sweeper").contains("PAID to CANCELLED"));
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE actor IN ('mallory', 'cancel-sweeper')")).isZero();
        assertThat(AccessControlledDb.count("SELECT version FROM orders WHERE order_id = 'w-1'")).isEqualTo(3);
    }

    /**
     * Found in the new-user trial: an OVERRIDE row a support account inserted in an admin's name, plus one XADD of a
     * well-formed entry, brought a FINISHED order back as PAID. The INSERT is refused now; the XADD alone is set aside,
     * while an admin's real override, recorded from her own session, still reaches MySQL.
     */
    @Test
    void anOverrideReachesMySqlOnlyWithTheAdminsOwnRecord() throws Exception {
        AccessControlledDb.reset();
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER).withBackgroundJobs(null, Duration.ofMillis(50)));
             Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            TransitionService t = ada.services().transitions();
            for (String id : new String[]{"ov-real", "ov-forged"}) {
                ada.services().orders().create(ada.operator(), id, null, Duration.ofMinutes(30));
                assertThat(t.transitionAndWait(ada.operator(), TransitionRequest.of(id, OrderStatus.CANCELLED, "console", ""), WAIT)
                        .mysqlSynced()).isTrue();
            }
            assertThat(t.transition(ada.operator(), new TransitionRequest("ov-real", OrderStatus.PAID, 2L, "console",
                    "customer paid by bank transfer", true)).applied()).isTrue();
            assertThat(fred.services().follower().catchUp(WAIT).caughtUp()).isTrue();
            try (Connection c = AccessControlledDb.connect("sam"); Statement st = c.createStatement()) {
                refused(() -> st.execute("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) "
                        + "VALUES (1, 'ada', 'console', 'OVERRIDE', 'ov-forged', 'forged', 'v2 to v3 PAID')"), "sam", "audit_log");
            }
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("ov-forged")), Map.of("e", "ov-forged,6,2,3,1\nada\nconsole\nforged"));
            }
            assertThat(fred.services().follower().catchUp(WAIT).caughtUp()).isTrue();
            assertThat(ada.services().deadLetters().open(10)).anySatisfy(d -> assertThat(d.reason())
                    .contains("ov-forged").contains("no override is recorded"));
        }
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'ov-real'")).isEqualTo(OrderStatus.PAID.code());
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'ov-forged'"))
                .as("still CANCELLED").isEqualTo(OrderStatus.CANCELLED.code());
    }

    /**
     * Issue 33.3: two sweepers (sam's console beside serve) race for a due order; the loser's cancel is refused -3 from
     * CANCELLED. It is history in the sweeper's name, not an "unknown actor" alarm (97 such dead letters in 60 s in the
     * issue's trial).
     */
    @Test
    void aRacingSweepersRefusedCancelIsHistoryNotAnAlarm() throws Exception {
        AccessControlledDb.reset();
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER).withBackgroundJobs(null, Duration.ofMillis(50)));
             Engine sam = Engine.start(AccessControlledDb.config("sam"))) {
            sam.services().orders().create(sam.operator(), "due-1", null, Duration.ofMillis(1));
            Thread.sleep(5);
            com.orderconsole.domain.Operator sweeper = com.orderconsole.domain.Operator.system(com.orderconsole.domain.Operator.CANCEL_SWEEPER);
            TransitionRequest cancel = TransitionRequest.of("due-1", OrderStatus.CANCELLED, "sweeper", "payment timeout")
                    .onlyFrom(OrderStatus.WAIT_PAY);
            assertThat(sam.services().transitions().transition(sweeper, cancel).applied()).isTrue();
            assertThat(fred.services().transitions().transition(sweeper, cancel).code())
                    .isEqualTo(com.orderconsole.domain.ResultCode.VERSION_CONFLICT);
            assertThat(fred.services().follower().catchUp(WAIT).caughtUp()).isTrue();
            assertThat(fred.services().deadLetters().open(10)).isEmpty();
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'due-1' AND actor = 'cancel-sweeper'"))
                .as("the cancel and the refused attempt").isEqualTo(2);
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'due-1'")).isEqualTo(OrderStatus.CANCELLED.code());
    }

    /** w-1 created by sam and paid by sam (v2), applied by fred's follower. */
    private static void seed() {
        AccessControlledDb.reset();
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER).withBackgroundJobs(null, Duration.ofMillis(50)));
             Engine sam = Engine.start(AccessControlledDb.config("sam"))) {
            sam.services().orders().create(sam.operator(), "w-1", null, Duration.ofMinutes(30));
            assertThat(sam.services().transitions().transitionAndWait(sam.operator(), TransitionRequest.of("w-1", OrderStatus.PAID,
                    "console", ""), WAIT).mysqlSynced()).isTrue();
            assertThat(fred.services().follower().appliesHere()).isTrue();
        }
    }

    private static void refused(org.assertj.core.api.ThrowableAssert.ThrowingCallable sql, String account, String table) {
        assertThatThrownBy(sql).isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1142))
                .hasMessageContaining("command denied to user '" + account + "'").hasMessageContaining(table);
    }
}
