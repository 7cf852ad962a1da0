package com.orderconsole.ui.monitor;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.monitor.MinuteCount;
import com.orderconsole.ui.ViewModelTestBase;
import com.orderconsole.ui.monitor.MonitorViewModel.MinutePoint;
import com.orderconsole.ui.monitor.MonitorViewModel.Reading;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorViewModelTest extends ViewModelTestBase {

    @Test
    void countsAppliedAndRejectedTransitions() {
        createOrder("u-1");
        move("u-1", OrderStatus.PAID);
        move("u-1", OrderStatus.FINISHED);
        move("u-1", OrderStatus.PAID);
        services.follower().drainOnce();
        MonitorViewModel vm = new MonitorViewModel(services.monitor(), background);
        vm.refresh();

        Reading r = vm.readingProperty().get();
        assertThat(r.applied()).isEqualTo(1);
        assertThat(r.resultCounts()).containsEntry(ResultCode.NOT_ALLOWED, 1L).containsEntry(ResultCode.ALREADY_IN_STATUS, 1L);
        assertThat(r.rejections()).isEqualTo(2);
        List<MinutePoint> minutes = r.minutes();
        assertThat(minutes).hasSize(60);
        assertThat(minutes.stream().mapToLong(MinutePoint::rejected).sum()).isEqualTo(2);
        assertThat(minutes.stream().mapToLong(MinutePoint::applied).sum()).as("the payment; creation is not a transition").isEqualTo(1);
    }

    @Test
    void quietMinutesAreZeros() {
        long now = 10 * 60_000L + 30_000;
        Reading r = new Reading(Map.of(), List.of(new MinuteCount(8 * 60_000L, Map.of(ResultCode.APPLIED, 4L))), now);
        List<MinutePoint> minutes = r.minutes();
        assertThat(minutes).hasSize(60);
        assertThat(minutes.get(59)).isEqualTo(new MinutePoint(0, 0, 0));
        assertThat(minutes.get(57)).isEqualTo(new MinutePoint(-2, 4, 0));
        assertThat(minutes.get(0).minutesAgo()).isEqualTo(-59);
    }
}
