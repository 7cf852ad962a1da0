package com.orderconsole.redis;

import com.orderconsole.domain.OrderStatus;

import java.util.HashMap;
import java.util.Map;

/**
 * The counters per bucket ({@code osm:{bNN}:stats}): per result code {@code c:<code>} for the codes that write no
 * outbox entry (-1, -6), per applied edge {@code m:<from>><to>} (and {@code e:<from>><to>} from scripts before
 * issue 15), per rejected edge {@code r:<from>><to>:<code>}, and per status {@code n:<status>}.
 *
 * <p>The edge counters are counted from the outbox (count_outbox.lua, {@link OutboxCount}), not by transition.lua:
 * every read here adds the entries not counted yet to what is counted, so a reader sees every outcome Redis has
 * accepted, as when the script counted them itself, and writes nothing.
 *
 * <p>Live orders per status: a live count is {@code n:<s>} (orders created, rebuilt, forgotten and repaired in
 * s) plus the {@code m:} moves into s minus those out of s. The earlier scripts moved {@code n:} together
 * with {@code e:}, so a bucket counted before an upgrade stays right: its {@code e:} are not in the net.
 * Readers see the derived {@code n:} and one {@code e:} per edge ({@code e:} + {@code m:}).
 */
public final class StatsStore {
    private final RedisConnection redis;

    StatsStore(RedisConnection redis) {
        this.redis = redis;
    }

    /**
     * @return live orders per status code of one bucket, as the counters say ({@code n:} plus the net of
     *     the {@code m:} moves; codes with neither absent)
     */
    public Map<Integer, Long> statusCounts(int bucket) {
        Map<Integer, Long> out = new HashMap<>();
        live(OutboxCount.read(redis, bucket)).forEach((k, v) -> out.put(Integer.parseInt(k.substring(2)), v));
        return out;
    }

    /** @return {@code n:<s>} to live count: n: plus moves in minus moves out (m: fields), from raw counters */
    private static Map<String, Long> live(Map<String, Long> raw) {
        Map<String, Long> out = new HashMap<>();
        raw.forEach((k, v) -> {
            if (k.startsWith("n:")) {
                out.merge(k, v, Long::sum);
            } else if (k.startsWith("m:")) {
                int gt = k.indexOf('>');
                out.merge("n:" + k.substring(2, gt), -v, Long::sum);
                out.merge("n:" + k.substring(gt + 1), v, Long::sum);
            }
        });
        return out;
    }

    /**
     * Overwrites one bucket's live per-status counters with counted values (reconciliation's repair);
     * the other counters are left as they are.
     *
     * @param counts status code to live orders; codes absent are set to 0
     * @throws IllegalStateException when the bucket's outbox never stops growing long enough to be counted
     */
    public void setStatusCounts(int bucket, Map<Integer, Long> counts) {
        // One argument per status, in code order: the script takes the status count from their number.
        String[] args = new String[OrderStatus.count()];
        for (OrderStatus s : OrderStatus.values()) {
            args[s.code() - 1] = Long.toString(counts.getOrDefault(s.code(), 0L));
        }
        // In one step with the moves (set_status_counts.lua), so that a transition meanwhile is not lost; the
        // script refuses while outbox entries are uncounted (their moves are in the orders counted, not yet in m:).
        for (int attempt = 0; attempt < 50; attempt++) {
            OutboxCount.run(redis, bucket, null);
            Long set = redis.await(redis.evalAsync(LuaScript.SET_STATUS_COUNTS, io.lettuce.core.ScriptOutputType.INTEGER,
                    new String[]{RedisKeys.stats(bucket), RedisKeys.outbox(bucket)}, args), "set status counts");
            if (set == args.length) {
                return;
            }
        }
        throw new IllegalStateException("Redis bucket " + bucket + " took new transitions on each of 50 tries to set its "
                + "live counts; try again when traffic is lower");
    }

    /**
     * @return all counters summed over the buckets. Per result code ({@code c:<code>}): transition.lua
     *     counts edges only ({@code e:} applied, {@code r:...:<code>} rejected) and {@code c:} only for the
     *     codes without an edge (-1, -6), so {@code c:1} and the rejection codes are added up here from
     *     the edges (which every version of the script kept together with {@code c:}, so the sum is exact
     *     for counters written before this change too)
     */
    public Map<String, Long> all() {
        Map<String, Long> raw = raw();
        Map<String, Long> out = new HashMap<>();
        Map<String, Long> perCode = new HashMap<>();
        raw.forEach((k, v) -> {
            if (k.startsWith("c:") || k.startsWith("n:")) {
                return;
            }
            if (k.startsWith("m:")) {
                k = "e:" + k.substring(2);
            }
            out.merge(k, v, Long::sum);
            if (k.startsWith("e:")) {
                perCode.merge("c:1", v, Long::sum);
            } else if (k.startsWith("r:")) {
                perCode.merge("c:" + k.substring(k.lastIndexOf(':') + 1), v, Long::sum);
            }
        });
        raw.forEach((k, v) -> {
            if (k.startsWith("c:") && !EDGE_CODES.contains(k)) {
                out.put(k, v);
            }
        });
        perCode.forEach((k, v) -> out.merge(k, v, Long::sum));
        out.putAll(live(raw));
        return out;
    }

    /** Result codes transition.lua counts through an edge counter (applied e:, rejected r:), not under c:. */
    private static final java.util.Set<String> EDGE_CODES = java.util.Set.of("c:1", "c:0", "c:-2", "c:-3", "c:-4");

    private Map<String, Long> raw() {
        Map<String, Long> sum = new HashMap<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            OutboxCount.read(redis, b).forEach((k, v) -> sum.merge(k, v, Long::sum));
        }
        return sum;
    }
}
