package com.orderconsole.soak;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Length and knobs of one soak run, from system properties. Everything else scales with the length:
 * {@code soak.seconds} (default 120) is the time faults and clients run; set-up and the final checks
 * come on top (about 30-50 s).
 *
 * @param seconds fault-and-load phase, s ({@code soak.seconds})
 * @param seed seeds fault timing and client plans ({@code soak.seed}; default: random, printed)
 * @param faults kinds to inject ({@code soak.faults}: "all" or a comma list such as "ENGINE_KILL,STALL")
 * @param engines engine processes ({@code soak.engines}, default 3)
 * @param ordersPerSecond client creation rate ({@code soak.rate}, default 10)
 * @param clientThreads client threads in the test JVM
 * @param gapMinMs least pause between two server/connection faults, ms
 * @param gapMaxMs most pause between two server/connection faults, ms
 * @param killGapMinMs least pause between two engine kills, ms
 * @param killGapMaxMs most pause between two engine kills, ms
 * @param mysqlOutageMaxMs longest MariaDB outage, ms (an outage lasts half of it to all of it)
 * @param stallMaxMs longest connection stall, ms (at least 2 s)
 * @param catchUpMs how long the engines get to catch up after the faults stop, ms
 * @param lossWindowMs acknowledgements lost with the Redis data set (the restart without AOF) are excused
 *     when they were at most this old at the loss: the follower's ordinary lag
 * @param masters 0 for one Redis server; otherwise the masters of a Redis Cluster ({@code soak.redis=cluster}
 *     gives 3, {@code soak.masters} another number), with the cluster faults of issue 16
 */
record SoakSettings(long seconds, long seed, Set<FaultInjector.Kind> faults, int engines, double ordersPerSecond,
                    int clientThreads, long gapMinMs, long gapMaxMs, long killGapMinMs, long killGapMaxMs,
                    long mysqlOutageMaxMs, long stallMaxMs, long catchUpMs, long lossWindowMs, int masters) {

    /** @return true when the soak runs against a Redis Cluster */
    boolean cluster() {
        return masters > 0;
    }

    /** Reads the {@code soak.*} system properties; see the record's parameters. */
    static SoakSettings fromSystemProperties() {
        long seconds = Long.getLong("soak.seconds", 120);
        long seed = Long.getLong("soak.seed", System.nanoTime());
        long ms = seconds * 1000;
        return new SoakSettings(seconds, seed, faults(System.getProperty("soak.faults", "all")),
                Integer.getInteger("soak.engines", 3),
                Double.parseDouble(System.getProperty("soak.rate", "10")),
                4,
                3_000, clamp(ms / 15, 8_000, 30_000),
                5_000, clamp(ms / 10, 15_000, 40_000),
                // ~10 s in the 2-minute run, 60 s from a 12-minute run on (issue 11: "up to 60 s").
                clamp(ms / 12, 6_000, 60_000),
                clamp(ms / 20, 5_000, 8_000),
                clamp(ms / 6, 20_000, 120_000),
                Long.getLong("soak.lossWindowMs", 5_000),
                redisMode(System.getProperty("soak.redis", "single")));
    }

    private static int redisMode(String mode) {
        return switch (mode.trim().toLowerCase(Locale.ROOT)) {
            case "single", "" -> 0;
            case "cluster" -> Integer.getInteger("soak.masters", 3);
            default -> throw new IllegalArgumentException("soak.redis is '" + mode + "': say single (one Redis server) or cluster (a 3-master Redis Cluster)");
        };
    }

    private static Set<FaultInjector.Kind> faults(String spec) {
        if (spec.isBlank() || "all".equalsIgnoreCase(spec.trim())) {
            return EnumSet.allOf(FaultInjector.Kind.class);
        }
        Set<FaultInjector.Kind> s = EnumSet.noneOf(FaultInjector.Kind.class);
        for (String k : spec.split(",")) {
            if (!k.isBlank()) {
                s.add(FaultInjector.Kind.valueOf(k.trim().toUpperCase(Locale.ROOT)));
            }
        }
        return s;
    }

    private static long clamp(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
