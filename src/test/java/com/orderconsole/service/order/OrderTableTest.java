package com.orderconsole.service.order;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderTableTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @BeforeEach
    void start() {
        s = engine.services();
        for (int i = 0; i < 25; i++) {
            s.orders().create(support, String.format("a_%02d", i), null, Duration.ofMinutes(30));
        }
        s.orders().create(support, "axb", null, Duration.ofMinutes(30));
    }

    private List<OrderSummary> all(OrderQuery q, int pageSize) {
        List<OrderSummary> out = new ArrayList<>();
        String cursor = null;
        do {
            OrderPage p = s.orders().page(q, cursor, pageSize);
            out.addAll(p.rows());
            cursor = p.nextCursor();
        } while (cursor != null);
        return out;
    }

    @Test
    void prefixLookupTreatsUnderscoreLiterallyAndPagesWithoutGapsOrRepeats() {
        OrderQuery q = new OrderQuery(null, "a_", Set.of(), false, null, null, false, false);
        List<OrderSummary> rows = all(q, 10);
        assertThat(rows).hasSize(25).extracting(OrderSummary::orderId).doesNotHaveDuplicates().doesNotContain("axb");
        assertThat(rows.get(0).orderId()).isEqualTo("a_00");
    }

    @Test
    void exactLookupAndStatusFilter() {
        s.transitions().transition(support, TransitionRequest.of("a_03", OrderStatus.PAID, "t", ""));
        s.follower().drainOnce();
        assertThat(s.orders().page(new OrderQuery("a_03", null, Set.of(), false, null, null, false, false), null, 50).rows())
                .singleElement().satisfies(o -> assertThat(o.status()).isEqualTo(OrderStatus.PAID));
        assertThat(all(OrderQuery.inStatus(OrderStatus.PAID, false), 5)).extracting(OrderSummary::orderId).containsExactly("a_03");
    }

    @Test
    void stuckOnlyUsesTheThresholdAndAgeSortingPutsTheOldestFirst() {
        RawSql.update("UPDATE orders SET status_since_ms = status_since_ms - 3600000 WHERE order_id IN ('a_07', 'a_08')");
        RawSql.update("UPDATE orders SET status_since_ms = status_since_ms - 7200000 WHERE order_id = 'a_08'");
        List<OrderSummary> stuck = all(OrderQuery.inStatus(OrderStatus.WAIT_PAY, true), 10);
        assertThat(stuck).extracting(OrderSummary::orderId).containsExactly("a_08", "a_07");
        assertThat(s.monitor().stateCounts().stuck()).containsEntry(OrderStatus.WAIT_PAY, 2L);
        java.util.Map<OrderStatus, Duration> longer = new java.util.EnumMap<>(s.stuckThresholds().all());
        longer.put(OrderStatus.WAIT_PAY, Duration.ofHours(4));
        s.rules().setStuckThresholds(new Operator("olga", Role.OPS), longer);
        assertThat(all(OrderQuery.inStatus(OrderStatus.WAIT_PAY, true), 10)).isEmpty();
    }

    /**
     * By age across statuses, every page is read per status and merged (no index on the age alone since V37): the
     * pages together hold every order once, oldest first over all statuses, ties by id; a status subset and an id
     * prefix keep their meaning.
     */
    @Test
    void ageSortingAcrossStatusesPagesInOneOrderWithoutGapsOrRepeats() {
        String[] to = {"PAID", "WAIT_SHIP", "SHIPPED", "FINISHED", "CANCELLED"};
        for (int i = 0; i < 25; i++) {
            int steps = i % 6; // WAIT_PAY .. FINISHED along the default moves, CANCELLED from WAIT_PAY
            String id = String.format("a_%02d", i);
            if (steps == 5) {
                s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.CANCELLED, "t", ""));
            } else {
                for (int k = 0; k < steps; k++) {
                    s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.valueOf(to[k]), "t", ""));
                }
            }
        }
        s.follower().drainOnce();
        // Ages that interleave the statuses, with ties that only the id breaks.
        RawSql.update("UPDATE orders SET status_since_ms = 1000000 + (CAST(SUBSTRING(order_id, 3) AS UNSIGNED) * 7919 % 13) * 1000"
                + " WHERE order_id LIKE 'a\\_%'");
        RawSql.update("UPDATE orders SET status_since_ms = 1000 WHERE order_id = 'axb'");
        List<String> expected = RawSql.column("SELECT order_id FROM orders ORDER BY status_since_ms, order_id");
        assertThat(expected).hasSize(26);
        assertThat(RawSql.count("SELECT COUNT(DISTINCT status) FROM orders")).isEqualTo(6);
        OrderQuery byAge = new OrderQuery(null, null, Set.of(), false, null, null, false, true);
        for (int pageSize : new int[]{1, 4, 7, 26, 100}) {
            assertThat(all(byAge, pageSize)).as("page size " + pageSize).extracting(OrderSummary::orderId).containsExactlyElementsOf(expected);
        }
        OrderQuery twoStatuses = new OrderQuery(null, "a_", Set.of(OrderStatus.PAID, OrderStatus.FINISHED), false, null, null, false, true);
        assertThat(all(twoStatuses, 3)).extracting(OrderSummary::orderId).containsExactlyElementsOf(RawSql.column(
                "SELECT order_id FROM orders WHERE status IN (2, 5) AND order_id LIKE 'a\\_%' ORDER BY status_since_ms, order_id"));
    }

    @Test
    void disagreeingOnlyShowsOrdersWhoseStoresDiffer() {
        s.transitions().transition(support, TransitionRequest.of("a_11", OrderStatus.PAID, "t", ""));
        OrderQuery q = new OrderQuery(null, null, Set.of(), false, null, null, true, false);
        assertThat(all(q, 10)).extracting(OrderSummary::orderId).containsExactly("a_11");
        s.follower().drainOnce();
        assertThat(all(q, 10)).isEmpty();
    }

    @Test
    void createdBetweenFiltersByCreationTime() {
        long now = System.currentTimeMillis();
        RawSql.update("UPDATE orders SET created_at_ms = 1000 WHERE order_id = 'a_01'");
        OrderQuery old = new OrderQuery(null, null, Set.of(), false, 0L, 2000L, false, false);
        assertThat(all(old, 10)).extracting(OrderSummary::orderId).containsExactly("a_01");
        assertThatThrownBy(() -> new OrderQuery(null, null, Set.of(), false, now, 0L, false, false))
                .hasMessageContaining("created-from is after created-to");
        assertThatThrownBy(() -> new OrderQuery(null, "a*", Set.of(), false, null, null, false, false))
                .hasMessageContaining("prefix");
    }

    @Test
    void extendedDeadlineIsKeptInMySqlForRebuilds() {
        long moved = s.queue().extend(new Operator("olga", Role.OPS), "a_05", Duration.ofHours(1), "test", "");
        assertThat(RawSql.count("SELECT expire_at_ms FROM orders WHERE order_id = 'a_05'")).isEqualTo(moved);
    }
}
