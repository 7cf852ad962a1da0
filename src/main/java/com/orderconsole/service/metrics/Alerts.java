package com.orderconsole.service.metrics;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Alert thresholds over successive {@link Reading}s: each incident is reported once when it begins and
 * once when it clears, never again in between. A reading without Redis changes nothing (a server being down is
 * the status bar's and {@code orderconsole_reading_ok}'s news, not four alerts); a reading without MySQL is still
 * judged, since every figure comes from Redis: the sync lag is measured against the positions MySQL last gave,
 * so its alert is raised during a MySQL outage, not after it.
 *
 * <p>Defaults: sync lag 30 s (the follower's own backlog warning starts at 10 s; 30 s means MySQL is
 * really behind), oldest overdue 60 s (the sweeper runs every second), rejection rate 50 % of at
 * least 20 attempts in the last 60 s (late payments after a cancel are normal, a majority is not),
 * sweeper silent 10 s (as the health check; when no sweeper ever ticked, silent since the first reading judged). Each can be set by a system property (seconds unless named):
 * {@code orderconsole.alert.syncLagSeconds}, {@code orderconsole.alert.overdueSeconds},
 * {@code orderconsole.alert.rejectionRate} (0..1), {@code orderconsole.alert.minAttempts},
 * {@code orderconsole.alert.sweeperSilentSeconds}.
 */
public final class Alerts {
    /**
     * @param syncLagSeconds oldest outbox entry not in MySQL
     * @param oldestOverdueSeconds oldest overdue cancel-queue entry
     * @param rejectionRate share 0..1 of rejected attempts over the window
     * @param minAttempts attempts in the window below which the rate is not judged
     * @param windowMs the rate's window, ms
     * @param sweeperSilentSeconds time since the last sweeper tick
     */
    public record Thresholds(double syncLagSeconds, double oldestOverdueSeconds, double rejectionRate, long minAttempts,
                             long windowMs, double sweeperSilentSeconds) {
        /** The defaults above. */
        public static final Thresholds DEFAULT = new Thresholds(30, 60, 0.5, 20, 60_000, 10);

        /**
         * @return the defaults, each replaced by its system property when set (names above)
         * @throws IllegalArgumentException naming the property when a value is not a number or out of range
         */
        public static Thresholds fromSystemProperties() {
            return new Thresholds(number("orderconsole.alert.syncLagSeconds", DEFAULT.syncLagSeconds(), Double.MAX_VALUE),
                    number("orderconsole.alert.overdueSeconds", DEFAULT.oldestOverdueSeconds(), Double.MAX_VALUE),
                    number("orderconsole.alert.rejectionRate", DEFAULT.rejectionRate(), 1),
                    (long) number("orderconsole.alert.minAttempts", DEFAULT.minAttempts(), Long.MAX_VALUE),
                    DEFAULT.windowMs(),
                    number("orderconsole.alert.sweeperSilentSeconds", DEFAULT.sweeperSilentSeconds(), Double.MAX_VALUE));
        }

        private static double number(String property, double fallback, double max) {
            String v = System.getProperty(property);
            if (v == null || v.isBlank()) {
                return fallback;
            }
            double d;
            try {
                d = Double.parseDouble(v.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("system property " + property + " must be a number, not '" + v + "'");
            }
            if (!(d >= 0 && d <= max)) {
                throw new IllegalArgumentException("system property " + property + " must be "
                        + (max == 1 ? "from 0 to 1" : "0 or more") + ", not " + v);
            }
            return d;
        }
    }

    private final Thresholds limits;
    private final Map<Alert.Kind, Boolean> open = new EnumMap<>(Alert.Kind.class);
    /** (time ms, applied total, rejected total) of recent readings, for the rate over the window. */
    private final Deque<long[]> recent = new ArrayDeque<>();
    /** Redis time of the first reading judged, ms; -1 before it. */
    private long firstJudgedMs = -1;

    /** @param limits the thresholds */
    public Alerts(Thresholds limits) {
        this.limits = limits;
    }

    /** @return the thresholds in force */
    public Thresholds thresholds() {
        return limits;
    }

    /**
     * @param r a new reading
     * @return incidents that began or cleared with it (empty when nothing changed)
     */
    public synchronized List<Alert> evaluate(Reading r) {
        List<Alert> changes = new ArrayList<>();
        if (!r.redisOk()) {
            return changes;
        }
        if (r.syncKnown()) {
            judge(changes, Alert.Kind.SYNC_LAG, r.syncLagMs() / 1000.0, limits.syncLagSeconds(), r.atMs());
        }
        judge(changes, Alert.Kind.OLDEST_OVERDUE, r.oldestOverdueMs() / 1000.0, limits.oldestOverdueSeconds(), r.atMs());
        if (firstJudgedMs < 0) {
            firstJudgedMs = r.atMs();
        }
        // No sweeper ever ticked: silent for as long as this process has watched, so a system where none runs is
        // reported once the threshold has passed instead of never.
        long tickAge = r.sweeperTickAgeMs() < 0 ? r.atMs() - firstJudgedMs : r.sweeperTickAgeMs();
        double silent = r.sweeperPaused() ? 0 : tickAge / 1000.0;
        judge(changes, Alert.Kind.SWEEPER_STALLED, silent, limits.sweeperSilentSeconds(), r.atMs());
        recent.addLast(new long[]{r.atMs(), r.applied(), r.rejected()});
        while (recent.size() > 1 && recent.peekFirst()[0] < r.atMs() - limits.windowMs()) {
            recent.removeFirst();
        }
        long[] first = recent.peekFirst();
        long applied = r.applied() - first[1];
        long rejected = r.rejected() - first[2];
        if (applied < 0 || rejected < 0) {
            // The counters were reset (a recount): start the window again.
            recent.clear();
            recent.addLast(new long[]{r.atMs(), r.applied(), r.rejected()});
        } else if (applied + rejected >= limits.minAttempts() || Boolean.TRUE.equals(open.get(Alert.Kind.REJECTION_RATE))) {
            double rate = applied + rejected == 0 ? 0 : (double) rejected / (applied + rejected);
            judge(changes, Alert.Kind.REJECTION_RATE, rate, limits.rejectionRate(), r.atMs());
        }
        return changes;
    }

    /** @return the incidents open now */
    public synchronized List<Alert.Kind> openIncidents() {
        return open.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }

    private void judge(List<Alert> changes, Alert.Kind kind, double value, double threshold, long at) {
        boolean over = value > threshold;
        boolean was = open.getOrDefault(kind, false);
        if (over != was) {
            open.put(kind, over);
            changes.add(new Alert(kind, over, value, threshold, at));
        }
    }
}
