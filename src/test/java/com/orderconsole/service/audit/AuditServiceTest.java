package com.orderconsole.service.audit;

import com.orderconsole.FreshEngine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The audit view over real MariaDB: every recorded action, filters, merged keyset pages, exports, the indexes used. */
class AuditServiceTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator alice = new Operator("alice", Role.SUPPORT);
    private final Operator bob = new Operator("bob", Role.OPS);
    private final Operator ada = new Operator("ada", Role.ADMIN);

    @BeforeEach
    void start() {
        s = engine.services();
        for (int i = 0; i < 6; i++) {
            s.orders().create(alice, "a-" + i, null, Duration.ofMinutes(30));
        }
        s.orders().create(alice, "zz-1", null, Duration.ofMinutes(30));
        s.transitions().transition(alice, TransitionRequest.of("a-0", OrderStatus.PAID, "console", "paid"));
        s.transitions().transition(bob, TransitionRequest.of("a-1", OrderStatus.PAID, "cli", "paid"));
        // A rejected attempt (not legal from WAIT_PAY) and a version conflict.
        s.transitions().transition(bob, TransitionRequest.of("a-2", OrderStatus.SHIPPED, "cli", "too early"));
        s.transitions().transition(bob, new TransitionRequest("a-3", OrderStatus.PAID, 7L, "cli", "stale", false));
        // An admin override: WAIT_PAY -> FINISHED is no edge of the rules.
        s.transitions().transition(ada, new TransitionRequest("a-4", OrderStatus.FINISHED, 1L, "console", "settled by phone", true));
        // Audit-log actions: a queue extend and a removal.
        s.queue().extend(bob, "a-5", Duration.ofMinutes(10), "console", "customer asked");
        s.queue().remove(bob, "zz-1", "console", "test order");
        assertThat(s.follower().catchUp(Duration.ofSeconds(20)).caughtUp()).isTrue();
    }

    private List<AuditEvent> all(AuditFilter f, int pageSize) {
        List<AuditEvent> out = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            AuditPage p = s.audit().page(f, cursor, pageSize);
            out.addAll(p.rows());
            cursor = p.nextCursor();
            assertThat(++pages).as("paging ends").isLessThan(100);
        } while (cursor != null);
        return out;
    }

    @Test
    void everyActionNewestFirstAcrossBothTablesWithoutGapsOrRepeatsAtAnyPageSize() {
        List<AuditEvent> whole = all(AuditFilter.all(), 1000);
        // 7 creations + 5 transitions or attempts in the history, 2 queue actions and the override's record (issue 25:
        // written before the script runs it) in the audit log.
        assertThat(whole).hasSize(15);
        assertThat(whole).filteredOn(e -> e.kind() == AuditEvent.Kind.ACTION).extracting(AuditEvent::action)
                .containsExactlyInAnyOrder("QUEUE_EXTEND", "QUEUE_REMOVE", "OVERRIDE");
        for (int i = 1; i < whole.size(); i++) {
            assertThat(whole.get(i).atMs()).isLessThanOrEqualTo(whole.get(i - 1).atMs());
        }
        for (int size : new int[]{1, 2, 3, 5}) {
            assertThat(all(AuditFilter.all(), size)).as("page size " + size).isEqualTo(whole);
        }
    }

    @Test
    void filtersByActorSourceCodeMoveKindPrefixAndTime() {
        assertThat(all(new AuditFilter("bob", null, null, null, null, null, null), 2))
                .extracting(e -> e.orderId() + ":" + (e.code() == null ? e.action() : e.code().code()))
                .containsExactlyInAnyOrder("a-1:1", "a-2:0", "a-3:-3", "a-5:QUEUE_EXTEND", "zz-1:QUEUE_REMOVE");
        assertThat(all(new AuditFilter(null, "cli", null, null, null, null, null), 10)).extracting(AuditEvent::orderId)
                .containsExactlyInAnyOrder("a-1", "a-2", "a-3");
        assertThat(all(new AuditFilter(null, null, null, ResultCode.VERSION_CONFLICT, null, null, null), 10))
                .singleElement().satisfies(e -> {
                    assertThat(e.orderId()).isEqualTo("a-3");
                    assertThat(e.reason()).isEqualTo("stale");
                });
        assertThat(all(new AuditFilter(null, null, MoveKind.OVERRIDE, null, null, null, null), 10)).singleElement()
                .satisfies(e -> {
                    assertThat(e.actor()).isEqualTo("ada");
                    assertThat(e.to()).isEqualTo(OrderStatus.FINISHED);
                });
        assertThat(all(new AuditFilter(null, null, MoveKind.LEGAL, null, null, null, null), 10)).extracting(AuditEvent::orderId)
                .containsExactlyInAnyOrder("a-0", "a-1");
        assertThat(all(new AuditFilter(null, null, null, null, null, null, "zz"), 10)).extracting(e -> e.kind().name())
                .containsExactlyInAnyOrder("TRANSITION", "ACTION");
        long now = System.currentTimeMillis();
        assertThat(all(new AuditFilter(null, null, null, null, now + 60_000, null, null), 10)).isEmpty();
        assertThat(all(new AuditFilter(null, null, null, null, now - 600_000, now + 60_000, null), 10)).hasSize(15);
    }

    @Test
    void exportsEveryMatchAsCsvAndJson() throws Exception {
        StringWriter csv = new StringWriter();
        assertThat(s.audit().exportCsv(AuditFilter.all(), csv, () -> false)).isEqualTo(15);
        String[] lines = csv.toString().split("\r\n");
        assertThat(lines).hasSize(16);
        assertThat(lines[0]).isEqualTo("at_utc,kind,actor,source,order_id,from,to,version,result_code,result,action,reason,detail,written_by,actor_unlike_writer");
        assertThat(csv.toString()).contains(",TRANSITION,ada,console,a-4,WAIT_PAY,FINISHED,2,1,applied,,settled by phone,");
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        assertThat(s.audit().exportJson(new AuditFilter("bob", null, null, null, null, null, null), json, () -> false)).isEqualTo(5);
        assertThat(json.toString(StandardCharsets.UTF_8)).startsWith("[").contains("\"action\" : \"QUEUE_EXTEND\"");
    }

    @Test
    void badFiltersAreNamed() {
        assertThatThrownBy(() -> new AuditFilter(null, null, null, null, 10L, 5L, null)).hasMessage("the time range ends before it starts");
        assertThatThrownBy(() -> new AuditFilter(null, null, null, null, null, null, "a b")).hasMessageContaining("prefix 'a b' is invalid");
        assertThatThrownBy(() -> s.audit().page(AuditFilter.all(), "nonsense", 10)).hasMessage("malformed page cursor");
        assertThatThrownBy(() -> s.audit().page(AuditFilter.all(), null, 0)).hasMessage("page size must be 1..1000, got 0");
    }

    @Test
    void eachFilterReadsAnIndexNotTheTable() {
        assertThat(s.audit().explainFirstPage(new AuditFilter("bob", null, null, null, null, null, null), 100))
                .singleElement().asString().startsWith("key=idx_history_actor_at");
        assertThat(s.audit().explainFirstPage(new AuditFilter(null, "bulk", null, null, null, null, null), 100))
                .singleElement().asString().startsWith("key=idx_history_source_at");
        assertThat(s.audit().explainFirstPage(new AuditFilter(null, null, null, ResultCode.VERSION_CONFLICT, null, null, null), 100))
                .singleElement().asString().startsWith("key=idx_history_code_at");
        assertThat(s.audit().explainFirstPage(AuditFilter.all(), 100)).singleElement().asString().startsWith("key=idx_history_at");
    }

    @Test
    void actorAndSourceMatchExactlyWhateverTheServersCollation() {
        // The columns take the server's default utf8mb4 collation, which ignores case and accents on MariaDB
        // and on MySQL 8 alike (and pads trailing spaces on one only): 'Bob' and 'bób' are other people.
        s.transitions().transition(new Operator("Bob", Role.OPS), TransitionRequest.of("a-5", OrderStatus.PAID, "CLI", "paid"));
        s.transitions().transition(new Operator("bób", Role.OPS), TransitionRequest.of("a-2", OrderStatus.PAID, "Cli", "paid"));
        s.queue().extend(new Operator("BOB", Role.OPS), "a-3", Duration.ofMinutes(5), "cli", "asked twice");
        assertThat(s.follower().catchUp(Duration.ofSeconds(20)).caughtUp()).isTrue();

        assertThat(all(new AuditFilter("bob", null, null, null, null, null, null), 3)).extracting(AuditEvent::actor)
                .isNotEmpty().containsOnly("bob");
        assertThat(all(new AuditFilter("Bob", null, null, null, null, null, null), 3)).extracting(AuditEvent::actor)
                .containsExactly("Bob");
        assertThat(all(new AuditFilter(null, "cli", null, null, null, null, null), 3)).extracting(AuditEvent::source)
                .isNotEmpty().containsOnly("cli");
        assertThat(s.audit().explainFirstPage(new AuditFilter("bob", null, null, null, null, null, null), 100))
                .singleElement().asString().startsWith("key=idx_history_actor_at");
    }
}
