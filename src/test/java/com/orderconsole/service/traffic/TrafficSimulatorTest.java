package com.orderconsole.service.traffic;

import com.orderconsole.FreshEngine;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.queue.CancelSweeper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class TrafficSimulatorTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator ops = new Operator("olivia", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    @Test
    void trafficArrivesPaysLatePaysAreRejectedAndPaidOrdersFinish() {
        s.sweeper().start(Duration.ofMillis(250));
        s.simulator().start(ops, new SimulatorSettings(20, 0.5, 0.3, Duration.ofSeconds(1)));
        assertThat(s.simulator().status().running()).isTrue();

        await().atMost(Duration.ofSeconds(60)).until(() -> {
            SimulatorStatus st = s.simulator().status();
            return st.created() >= 20 && st.paid() > 0 && st.latePays() > 0 && st.shipped() > 0 && st.finished() > 0;
        });
        s.simulator().stop();
        SimulatorStatus stopped = s.simulator().status();
        assertThat(stopped.running()).isFalse();
        assertThat(stopped.paid()).isLessThanOrEqualTo(stopped.created());
        assertThat(stopped.finished()).isLessThanOrEqualTo(stopped.shipped());

        assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        List<HistoryEntry> all = new ArrayList<>();
        String cursor = null;
        do {
            OrderPage page = s.orders().page(new OrderQuery(null, "sim-", Set.of(), false, null, null, false, false), cursor, 500);
            page.rows().forEach(o -> all.addAll(s.orders().lookup(o.orderId()).history()));
            cursor = page.nextCursor();
        } while (cursor != null);
        assertThat(all.stream().filter(h -> h.to() == OrderStatus.WAIT_PAY).count()).isEqualTo(stopped.created());
        assertThat(all).as("a late payment is rejected because the sweeper cancelled the order")
                .anyMatch(h -> h.code() == ResultCode.TERMINAL && h.to() == OrderStatus.PAID
                        && h.source().equals(TrafficSimulator.SOURCE) && h.actor().equals("olivia"));
        assertThat(all).as("unpaid orders are cancelled by the sweeper")
                .anyMatch(h -> h.to() == OrderStatus.CANCELLED && h.code() == ResultCode.APPLIED && h.actor().equals(CancelSweeper.ACTOR));
        assertThat(all).anyMatch(h -> h.to() == OrderStatus.FINISHED && h.code() == ResultCode.APPLIED);
        assertThat(all.stream().filter(h -> h.to() == OrderStatus.FINISHED && h.code().applied()).count())
                .isEqualTo(stopped.finished());
    }

    @Test
    void stoppingEndsCreation() {
        s.simulator().start(ops, new SimulatorSettings(50, 1, 0, Duration.ofSeconds(30)));
        await().atMost(Duration.ofSeconds(30)).until(() -> s.simulator().status().created() >= 5);
        s.simulator().stop();
        long created = s.simulator().status().created();
        long stored = countSimOrders();
        assertThat(stored).isEqualTo(created);
        // Restarting resets the counters.
        s.simulator().start(ops, new SimulatorSettings(1, 1, 0, Duration.ofSeconds(30)));
        assertThat(s.simulator().status().created()).isLessThanOrEqualTo(1);
        s.simulator().close();
        assertThat(s.simulator().status().running()).isFalse();
    }

    private long countSimOrders() {
        return s.orders().page(new OrderQuery(null, "sim-", Set.of(), false, null, null, false, false), null, 1000).rows().size();
    }

    @Test
    void settingsOutOfRangeAreRefusedNamingTheField() {
        assertThatThrownBy(() -> new SimulatorSettings(0, 0.5, 0.1, Duration.ofSeconds(5)))
                .hasMessageContaining("ordersPerSecond").hasMessageContaining("0.0");
        assertThatThrownBy(() -> new SimulatorSettings(5, 1.5, 0, Duration.ofSeconds(5))).hasMessageContaining("payShare");
        assertThatThrownBy(() -> new SimulatorSettings(5, 0.8, 0.3, Duration.ofSeconds(5)))
                .hasMessageContaining("payShare + latePayShare");
        assertThatThrownBy(() -> new SimulatorSettings(5, 0.5, 0.1, Duration.ofMillis(10))).hasMessageContaining("paymentTimeout");
    }

    @Test
    void supportMayNotRunTheSimulator() {
        assertThatThrownBy(() -> s.simulator().start(new Operator("sam", Role.SUPPORT), SimulatorSettings.demo()))
                .isInstanceOf(PermissionDeniedException.class);
        assertThat(s.simulator().status().running()).isFalse();
    }
}
