package com.orderconsole.service.follower;

import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15: the follower's batch path writes history rows and order moves in multi-row statements of at most
 * 1,000 rows. A backlog larger than one statement and one transaction, with several entries of one order in
 * a batch and rejected attempts among them, lands in MySQL exactly once, each order at its last version.
 */
class FollowerBatchTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @Test
    void aBacklogSpanningSeveralStatementsAndTransactionsIsAppliedOnceEach() {
        int orders = 700;
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            for (int i = 0; i < orders; i++) {
                s.orders().create(support, "fb-" + i, null, Duration.ofMinutes(30));
            }
            s.follower().drainOnce();
            long before = RawSql.count("SELECT COUNT(*) FROM order_history");
            // 700 × (PAY, a repeated PAY that is refused and recorded, SHIP-ready, SHIP) = 2,800 outbox entries.
            OrderStatus[] steps = {OrderStatus.PAID, OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED};
            for (OrderStatus to : steps) {
                for (int i = 0; i < orders; i++) {
                    s.transitions().transition(support, TransitionRequest.of("fb-" + i, to, "test", ""));
                }
            }
            // 1,500 per transaction: a full statement of 1,000 rows and one of 500, then the rest.
            s.follower().tune(1, 1500);
            assertThat(s.follower().drainOnce()).isEqualTo(4 * orders);
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history") - before).isEqualTo(4L * orders);
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE result_code = 1 AND to_status = 4")).isEqualTo(orders);
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE result_code <> 1")).isEqualTo(orders);
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'fb-%' AND status = 4 AND version = 4"))
                    .isEqualTo(orders);
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'fb-%' AND status_since_ms = "
                    + "(SELECT MAX(h.at_ms) FROM order_history h WHERE h.order_id = orders.order_id AND h.result_code = 1)"))
                    .isEqualTo(orders);
            assertThat(s.follower().status().pending()).isZero();
        }
    }
}
