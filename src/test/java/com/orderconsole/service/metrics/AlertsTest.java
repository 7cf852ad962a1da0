package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each incident is reported once when it begins and once when it clears. */
class AlertsTest {
    private static Reading reading(long at, long lagMs, long overdueMs, long tickAgeMs, long applied, long rejected) {
        Map<ResultCode, Long> results = new EnumMap<>(ResultCode.class);
        results.put(ResultCode.APPLIED, applied);
        results.put(ResultCode.NOT_ALLOWED, rejected);
        return new Reading(true, true, at, 0, lagMs, tickAgeMs, false, 0, 0, overdueMs, results, null, List.of());
    }

    @Test
    void syncLagIsRaisedOnceAndClearedOnce() {
        Alerts alerts = new Alerts(Alerts.Thresholds.DEFAULT);
        assertThat(alerts.evaluate(reading(0, 1_000, 0, 500, 0, 0))).isEmpty();
        List<Alert> raised = alerts.evaluate(reading(1_000, 31_000, 0, 500, 0, 0));
        assertThat(raised).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Alert.Kind.SYNC_LAG);
            assertThat(a.raised()).isTrue();
            assertThat(a.value()).isEqualTo(31.0);
            assertThat(a.threshold()).isEqualTo(30.0);
        });
        assertThat(alerts.evaluate(reading(2_000, 45_000, 0, 500, 0, 0))).as("still the same incident").isEmpty();
        assertThat(alerts.openIncidents()).containsExactly(Alert.Kind.SYNC_LAG);
        assertThat(alerts.evaluate(reading(3_000, 200, 0, 500, 0, 0))).singleElement()
                .satisfies(a -> assertThat(a.raised()).isFalse());
        assertThat(alerts.evaluate(reading(4_000, 100, 0, 500, 0, 0))).isEmpty();
        assertThat(alerts.evaluate(reading(5_000, 40_000, 0, 500, 0, 0))).as("a new incident").hasSize(1);
    }

    @Test
    void anUnreadableReadingChangesNothing() {
        Alerts alerts = new Alerts(Alerts.Thresholds.DEFAULT);
        alerts.evaluate(reading(0, 0, 61_000, 500, 0, 0));
        Reading down = new Reading(false, true, 1_000, -1, -1, -1, false, 0, 0, 0, Map.of(), null, List.of("Redis down"));
        assertThat(alerts.evaluate(down)).isEmpty();
        assertThat(alerts.openIncidents()).containsExactly(Alert.Kind.OLDEST_OVERDUE);
    }

    /** Every figure comes from Redis: with MySQL down the lag (measured against MySQL's last positions) is still judged. */
    @Test
    void theSyncLagIsRaisedWhileMySqlIsDown() {
        Alerts alerts = new Alerts(Alerts.Thresholds.DEFAULT);
        Reading mysqlDown = new Reading(true, false, 1_000, 3, 31_000, 500, false, 0, 0, 0, Map.of(), null, List.of("MySQL never answered"));
        assertThat(alerts.evaluate(mysqlDown)).extracting(Alert::kind, Alert::raised).containsExactly(org.assertj.core.groups.Tuple.tuple(Alert.Kind.SYNC_LAG, true));
        Reading unknown = new Reading(true, false, 2_000, -1, -1, 500, false, 0, 0, 0, Map.of(), null, List.of("MySQL never answered"));
        assertThat(alerts.evaluate(unknown)).as("an unknown lag neither raises nor clears").isEmpty();
    }

    @Test
    void aStalledSweeperIsRaisedButNotWhilePaused() {
        Alerts alerts = new Alerts(Alerts.Thresholds.DEFAULT);
        assertThat(alerts.evaluate(reading(0, 0, 0, 11_000, 0, 0))).extracting(Alert::kind).containsExactly(Alert.Kind.SWEEPER_STALLED);
        Reading paused = new Reading(true, true, 1_000, 0, 0, 60_000, true, 0, 0, 0, Map.of(), null, List.of());
        assertThat(alerts.evaluate(paused)).as("paused on purpose: the incident clears").singleElement()
                .satisfies(a -> assertThat(a.raised()).isFalse());
    }

    /** Issue 34: with no sweeper ever run (tick age unknown) the stalled-sweeper incident never began. */
    @Test
    void aSweeperThatNeverTickedIsStalledOnceTheThresholdHasPassedSinceWatchingBegan() {
        Alerts alerts = new Alerts(Alerts.Thresholds.DEFAULT);
        assertThat(alerts.evaluate(reading(100_000, 0, 0, -1, 0, 0))).as("just started watching").isEmpty();
        assertThat(alerts.evaluate(reading(105_000, 0, 0, -1, 0, 0))).isEmpty();
        assertThat(alerts.evaluate(reading(111_000, 0, 0, -1, 0, 0))).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Alert.Kind.SWEEPER_STALLED);
            assertThat(a.value()).isEqualTo(11.0);
        });
        assertThat(alerts.evaluate(reading(112_000, 0, 0, 300, 0, 0))).as("a sweeper ticked: cleared").singleElement()
                .satisfies(a -> assertThat(a.raised()).isFalse());
    }

    @Test
    void theRejectionRateIsJudgedOverTheLastMinuteAndNotOnAHandful() {
        Alerts alerts = new Alerts(Alerts.Thresholds.DEFAULT);
        alerts.evaluate(reading(0, 0, 0, 500, 100, 10));
        assertThat(alerts.evaluate(reading(1_000, 0, 0, 500, 101, 15))).as("6 attempts: too few to judge").isEmpty();
        List<Alert> raised = alerts.evaluate(reading(2_000, 0, 0, 500, 105, 40));
        assertThat(raised).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Alert.Kind.REJECTION_RATE);
            assertThat(a.value()).isEqualTo(30.0 / 35.0);
        });
        // A minute later the burst has left the window: the open incident clears.
        assertThat(alerts.evaluate(reading(70_000, 0, 0, 500, 145, 42))).singleElement()
                .satisfies(a -> assertThat(a.raised()).isFalse());
    }
}
