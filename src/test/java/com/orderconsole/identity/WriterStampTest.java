package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25.1 (the part built): the database stamps the login that wrote each history and audit row, whatever the
 * client put into it, and the audit view flags a row naming an actor other than its writer outside the follower's
 * normal work. Against MariaDB with grant tables and one account per role, each signed in with its own password.
 */
@Slow
class WriterStampTest {
    @Test
    void aSupportAccountsRowInAnAdminsNameIsStampedWithItsOwnLoginAndFlagged() throws Exception {
        AccessControlledDb.reset();
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            ada.services().rules().current(); // the first sign-in seeds the rules, which support may not archive
        }
        try (Engine sam = Engine.start(AccessControlledDb.config("sam"))) {
            sam.services().orders().create(sam.operator(), "w-1", null, Duration.ofMinutes(30));
            sam.services().transitions().transitionAndWait(sam.operator(), TransitionRequest.of("w-1", OrderStatus.PAID, "console", ""),
                    Duration.ofSeconds(10));
        }
        // The hand trial of the issue: a plain client signed in as sam writes rows that claim ada acted, and tries to
        // pass its own login off as hers in the writer column.
        try (Connection c = AccessControlledDb.connect("sam"); Statement st = c.createStatement()) {
            st.execute("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail, written_by) "
                    + "VALUES (1, 'ada', 'console', 'REPAIR', 'w-1', 'forged', '', 'ada@localhost')");
            st.execute("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, "
                    + "at_ms, event_key, written_by) VALUES ('w-1', 2, 3, 3, 1, 'ada', 'console', 'forged', 2, 'hand-1', 'ada@localhost')");
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log WHERE reason = 'forged' AND written_by LIKE 'sam@%'"))
                .as("the trigger overwrote the writer the client claimed").isEqualTo(1);
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            List<AuditEvent> rows = ada.services().audit().page(AuditFilter.all(), null, 100).rows();
            assertThat(rows).filteredOn(e -> "forged".equals(e.reason())).hasSize(2).allSatisfy(e -> {
                assertThat(e.actor()).isEqualTo("ada");
                assertThat(e.writtenBy()).startsWith("sam@");
                assertThat(e.actorUnlike()).as("flagged: %s", e).isTrue();
            });
            // sam's own creation and payment: the creation row written by sam's session, the payment by the follower
            // applying sam's outbox entry; neither is flagged.
            assertThat(rows).filteredOn(e -> "w-1".equals(e.orderId()) && !"forged".equals(e.reason())).isNotEmpty().allSatisfy(e -> {
                assertThat(e.writtenBy()).isNotNull();
                assertThat(e.actorUnlike()).as("not flagged: %s", e).isFalse();
            });
        }
    }

    /**
     * Found in the new-user trial: an OVERRIDE row a support account inserted in an admin's name, plus one XADD of a
     * well-formed entry, brought a FINISHED order back as PAID. An override record counts only when its writer is the
     * actor it names; an admin's real override, recorded from her own session, still reaches MySQL.
     */
    @Test
    void anOverrideRecordWrittenByAnotherAccountVouchesForNothing() throws Exception {
        AccessControlledDb.reset();
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            var s = ada.services();
            for (String id : new String[]{"ov-real", "ov-forged"}) {
                s.orders().create(ada.operator(), id, null, Duration.ofMinutes(30));
                s.transitions().transitionAndWait(ada.operator(), TransitionRequest.of(id, OrderStatus.CANCELLED, "console", ""),
                        Duration.ofSeconds(10));
            }
            assertThat(s.transitions().transition(ada.operator(), new TransitionRequest("ov-real", OrderStatus.PAID, 2L, "console",
                    "customer paid by bank transfer", true)).applied()).isTrue();
            s.follower().drainOnce();
        }
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'ov-real'")).isEqualTo(OrderStatus.PAID.code());
        try (Connection c = AccessControlledDb.connect("sam"); Statement st = c.createStatement()) {
            st.execute("INSERT INTO audit_log (at_ms, actor, source, action, order_id, reason, detail) "
                    + "VALUES (1, 'ada', 'console', 'OVERRIDE', 'ov-forged', 'forged', 'v2 to v3 PAID')");
        }
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            raw.cmd().xadd(com.orderconsole.redis.RedisKeys.outbox(com.orderconsole.redis.RedisKeys.bucket("ov-forged")),
                    java.util.Map.of("e", "ov-forged,6,2,3,1\nada\nconsole\nforged"));
        }
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            ada.services().follower().drainOnce();
            assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'ov-forged'"))
                    .as("still CANCELLED: the override row was sam's, not ada's").isEqualTo(OrderStatus.CANCELLED.code());
            assertThat(ada.services().deadLetters().open(10)).anySatisfy(d -> assertThat(d.reason())
                    .contains("ov-forged").contains("without an override"));
        }
    }
}
