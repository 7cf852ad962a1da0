package com.orderconsole.ui.monitor;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.monitor.MinuteCount;
import com.orderconsole.service.monitor.Monitor;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Monitor page: result codes counted by the transition script, and transitions/rejections per minute, read from
 * {@code service/monitor} (the Prometheus endpoint shown on the same page is {@code ui/metrics}).
 */
public final class MonitorViewModel implements Refreshable {
    /** How far back the per-minute chart goes. */
    public static final Duration WINDOW = Duration.ofMinutes(60);

    private final Monitor monitor;
    private final ReadOnlyObjectWrapper<Reading> reading = new ReadOnlyObjectWrapper<>();
    private final Feedback feedback = new Feedback();
    private final Command reads;

    /**
     * One reading.
     *
     * @param resultCounts how often the script returned each code (every code present), since the counters began
     * @param perMinute outcomes per minute over {@link #WINDOW}, oldest first, minutes without history left out
     * @param atMs when it was read, epoch ms
     */
    public record Reading(Map<ResultCode, Long> resultCounts, List<MinuteCount> perMinute, long atMs) {
        /** @return all rejections (every code but APPLIED) */
        public long rejections() {
            return resultCounts.entrySet().stream().filter(e -> !e.getKey().applied()).mapToLong(Map.Entry::getValue).sum();
        }

        /**
         * Every minute of the window, oldest first, minutes without history as zeros (so a chart line
         * does not bridge quiet minutes).
         *
         * @return one point per minute; {@code minutesAgo} is 0 for the current minute, negative before
         */
        public List<MinutePoint> minutes() {
            long current = Math.floorDiv(atMs, 60_000L);
            Map<Long, MinuteCount> byMinute = new HashMap<>();
            perMinute.forEach(m -> byMinute.put(Math.floorDiv(m.minuteStartMs(), 60_000L), m));
            List<MinutePoint> out = new ArrayList<>();
            for (long m = current - WINDOW.toMinutes() + 1; m <= current; m++) {
                MinuteCount c = byMinute.get(m);
                long applied = c == null ? 0 : c.byCode().getOrDefault(ResultCode.APPLIED, 0L);
                long rejected = c == null ? 0 : c.byCode().entrySet().stream().filter(e -> !e.getKey().applied())
                        .mapToLong(Map.Entry::getValue).sum();
                out.add(new MinutePoint(m - current, applied, rejected));
            }
            return out;
        }

        /** @return applied transitions */
        public long applied() {
            return resultCounts.getOrDefault(ResultCode.APPLIED, 0L);
        }
    }

    /**
     * One minute of the per-minute chart.
     *
     * @param minutesAgo 0 for the current minute, -1 for the one before, ...
     * @param applied transitions applied (history rows with code APPLIED; creations are not transitions)
     * @param rejected history rows with any other code
     */
    public record MinutePoint(long minutesAgo, long applied, long rejected) {
    }

    /**
     * @param monitor reads the counters
     * @param background where the reads run
     */
    public MonitorViewModel(Monitor monitor, Background background) {
        this.monitor = monitor;
        this.reads = new Command(background, feedback::error);
    }

    @Override
    public void refresh() {
        reads.run(Messages.get("monitor.read.action"), job -> new Reading(monitor.resultCounts(), monitor.perMinute(WINDOW),
                System.currentTimeMillis()), r -> {
            feedback.clear();
            reading.set(r);
        });
    }

    /** @return the last reading, null before the first */
    public ReadOnlyObjectProperty<Reading> readingProperty() {
        return reading.getReadOnlyProperty();
    }

    /** @return the last error in words, "" when the last reading succeeded */
    public Feedback feedback() {
        return feedback;
    }
}
