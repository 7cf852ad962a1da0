package com.orderconsole.bench;

import com.orderconsole.redis.LuaScript;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server cost of transition.lua next to the source article's minimal script (HGET + HSET + HINCRBY),
 * measured side by side against the same Redis with redis-benchmark (Debian redis-tools: a C client,
 * pipelined, so no JVM competes for the cores): {@code -c 50 -P 16}, random orders out of 1,000,000
 * seeded in WAIT_PAY, the rules copy written by publish_rules.lua, every transition WAIT_PAY → PAID (a
 * repeat of an order is answered -4). Rounds alternate article / transition.lua, orders re-seeded, the AOF rewritten and the
 * servers idle before each round; the best round of each counts. Judged on calls/s, as issue 15 asks; beside it the server CPU
 * per call (INFO cpu: it includes writing the reply, which commandstats' usec_per_call leaves out, and
 * the reply's shape alone moved it by 3-5 µs) and, from the same round, where transition.lua's time goes.
 */
final class ScriptCostScenario {
    static final int ORDERS = 1_000_000;
    private static final String ARTICLE = """
            local s = redis.call('HGET', KEYS[1], 'status')
            redis.call('HSET', KEYS[1], 'status', ARGV[1])
            redis.call('HINCRBY', KEYS[1], 'version', 1)
            return s
            """;
    private static final String SEED = """
            for i = tonumber(ARGV[1]), tonumber(ARGV[2]) - 1 do
              redis.call('HSET', string.format('sc:o:%012d', i), 'status', 1, 'version', 1, 'updateTime', 1, 'createTime', 1)
            end
            redis.call('DEL', 'sc:x', 'sc:s', 'sc:q')
            return 1
            """;
    private final BenchEnv env;
    private final Table table;
    private final int n;

    ScriptCostScenario(BenchEnv env, Table table, int n) {
        this.env = env;
        this.table = table;
        this.n = n;
    }

    /** The commands transition.lua runs inside its EVALSHA, in the order it runs them. */
    private static final List<String> INNER = List.of("hmget", "hget", "hincrby", "xadd", "hset", "zrem");

    /** One round of one script: calls/s, server CPU per call, and INFO commandstats after it. */
    private record Round(double callsPerSecond, double cpuUsPerCall, Map<String, double[]> stats) {
        /** @return µs per EVALSHA spent in {@code cmd} (usec of the command ÷ EVALSHA calls), 0 when it never ran */
        double perEval(String cmd) {
            double[] e = stats.get("evalsha");
            double[] c = stats.get(cmd);
            return e == null || c == null || e[0] == 0 ? 0 : c[1] / e[0];
        }

        /** @return calls of {@code cmd} per EVALSHA */
        double callsPerEval(String cmd) {
            double[] e = stats.get("evalsha");
            double[] c = stats.get(cmd);
            return e == null || c == null || e[0] == 0 ? 0 : c[0] / e[0];
        }
    }

    void run() throws Exception {
        String tool = System.getProperty("bench.redisBenchmark", "redis-benchmark");
        env.fresh();
        String article = load(ARTICLE);
        String current = load(LuaScript.TRANSITION.source());
        Round[] best = new Round[2];
        double[] cpu = {Double.MAX_VALUE, Double.MAX_VALUE};
        double applied = 0;
        double[] aofPerCall = new double[2];
        for (int round = 0; round < 2; round++) {
            for (int which = 0; which < 2; which++) {
                seed();
                // Seeding writes ~100 MB to the AOF: rewritten here, and the servers idle, so that every round starts from
                // the same state and a rewrite inside a round is one its own calls set off.
                rewriteAof();
                env.settle();
                String sha = which == 0 ? article : current;
                List<String> cmd = which == 0
                        ? List.of("EVALSHA", sha, "1", "sc:o:__rand_int__", "2")
                        : List.of("EVALSHA", sha, "5", "sc:o:__rand_int__", "sc:r", "sc:x", "sc:q", "sc:s", "o1", "2", "bench\nbench\n");
                env.redis.await(env.raw.configResetstat(), "CONFIG RESETSTAT");
                double cpu0 = serverCpuSeconds();
                long aof0 = aofBytes();
                double ops = benchmark(tool, cmd);
                aofPerCall[which] = (double) (aofBytes() - aof0) / n;
                // The whole server process (request parsing, the script, reply writing, the AOF's write and
                // fsync threads): what a call costs the server, where commandstats sees only the script's own time.
                Round r = new Round(ops, (serverCpuSeconds() - cpu0) * 1e6 / n, commandStats());
                if (best[which] == null || ops > best[which].callsPerSecond()) {
                    best[which] = r;
                }
                cpu[which] = Math.min(cpu[which], r.cpuUsPerCall());
                if (which == 1) {
                    // Applied calls: the move counter of the edge, once count_outbox.lua has counted the entries (after the
                    // round, so that the counting is not in the figures).
                    while (env.redis.<Long>await(env.raw.eval(LuaScript.COUNT_OUTBOX.source(), io.lettuce.core.ScriptOutputType.INTEGER,
                            new String[]{"sc:s", "sc:x"}, "1000", ""), "count outbox") != 0) {
                        // more to count
                    }
                    Object c1 = env.redis.await(env.raw.hget("sc:s", "m:1>2"), "HGET");
                    applied = c1 == null ? 0 : Long.parseLong(c1.toString()) * 100.0 / n;
                }
            }
        }
        env.redis.await(env.raw.flushall(), "FLUSHALL");
        double ratio = best[0].callsPerSecond() / best[1].callsPerSecond();
        table.add(Row.info("Script cost: the article's HGET + HSET + HINCRBY (redis-benchmark -c 50 -P 16, " + String.format("%,d", n)
                + " calls, best of 2 rounds)", Table.num(best[0].callsPerSecond(), 0), "calls/s"));
        table.add(Row.judged("Script cost: transition.lua, same server, same run (" + Table.num(applied, 0)
                        + " % applied, the rest repeats answered -4)", Table.num(best[1].callsPerSecond(), 0), "calls/s", "≤ 2× the article's cost",
                Table.num(ratio, 2) + "×", ratio <= 2));
        table.add(Row.info("Script cost: server CPU per call (INFO cpu used_cpu_user + used_cpu_sys over the round ÷ calls: the "
                + "script, reading requests, writing replies, AOF; lowest of 2 rounds), article / transition.lua; "
                + Table.num(cpu[1] / cpu[0], 2) + "×", Table.num(cpu[0], 2) + " / " + Table.num(cpu[1], 2), "µs"));
        table.add(Row.info("Script cost: AOF bytes written per call (last round; a rewrite inside a round would make it negative), article / "
                + "transition.lua: the outbox entry is most of the difference, and sets off the server's automatic AOF rewrites that much sooner",
                Table.num(aofPerCall[0], 0) + " / " + Table.num(aofPerCall[1], 0), "bytes"));
        double e0 = best[0].perEval("evalsha");
        double e1 = best[1].perEval("evalsha");
        table.add(Row.info("Script cost: time inside the EVALSHA (INFO commandstats usec_per_call, fastest round), article / "
                + "transition.lua; " + Table.num(e1 / e0, 2) + "×", Table.num(e0, 2) + " / " + Table.num(e1, 2), "µs"));
        table.add(Row.info("Script cost: where transition.lua's time goes (fastest round, µs per call: commandstats usec of each "
                + "command run inside the script ÷ EVALSHA calls, calls per EVALSHA in brackets; Lua = the EVALSHA's own time "
                + "less those; outside = server CPU less the EVALSHA's time)", breakdown(best[1]), "µs"));
        table.add(Row.info("Script cost: the same for the article's script", breakdown(best[0]), "µs"));
    }

    /** e.g. "hmget 2.26 (1.00) + … + Lua 7.10 + outside 1.20 = 14.40". */
    private static String breakdown(Round r) {
        StringBuilder b = new StringBuilder();
        double inner = 0;
        for (String c : INNER) {
            if (r.stats().containsKey(c)) {
                double us = r.perEval(c);
                inner += us;
                b.append(c.toUpperCase(java.util.Locale.ROOT)).append(' ').append(Table.num(us, 2))
                        .append(" (").append(Table.num(r.callsPerEval(c), 2)).append(") + ");
            }
        }
        double eval = r.perEval("evalsha");
        return b.append("Lua ").append(Table.num(eval - inner, 2)).append(" + outside ").append(Table.num(r.cpuUsPerCall() - eval, 2))
                .append(" = ").append(Table.num(r.cpuUsPerCall(), 2)).toString();
    }

    /** BGREWRITEAOF, then waits until it is done (at most 120 s). */
    private void rewriteAof() throws InterruptedException {
        long end = System.currentTimeMillis() + 120_000;
        while ("1".equals(env.info("persistence").get("aof_rewrite_in_progress")) && System.currentTimeMillis() < end) {
            Thread.sleep(100); // one the seeding set off
        }
        env.redis.await(env.raw.bgrewriteaof(), "BGREWRITEAOF");
        do {
            Thread.sleep(100);
        } while (!"0".equals(env.info("persistence").get("aof_rewrite_in_progress")) && System.currentTimeMillis() < end);
    }

    /** @return aof_current_size, bytes */
    private long aofBytes() {
        return Long.parseLong(env.info("persistence").getOrDefault("aof_current_size", "0"));
    }

    /** @return used_cpu_user + used_cpu_sys of the Redis server process, seconds */
    private double serverCpuSeconds() {
        Map<String, String> cpu = env.info("cpu");
        return Double.parseDouble(cpu.get("used_cpu_user")) + Double.parseDouble(cpu.get("used_cpu_sys"));
    }

    /** @return command name to {calls, usec} from INFO commandstats */
    private Map<String, double[]> commandStats() {
        Map<String, double[]> out = new HashMap<>();
        Pattern p = Pattern.compile("calls=([0-9]+),usec=([0-9]+)");
        env.info("commandstats").forEach((k, v) -> {
            Matcher m = p.matcher(v);
            if (k.startsWith("cmdstat_") && m.find()) {
                out.put(k.substring("cmdstat_".length()), new double[]{Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))});
            }
        });
        return out;
    }

    private String load(String script) {
        return env.redis.await(env.raw.scriptLoad(script), "SCRIPT LOAD");
    }

    private void seed() {
        env.redis.await(env.raw.eval(LuaScript.PUBLISH_RULES.source(), io.lettuce.core.ScriptOutputType.INTEGER, new String[]{"sc:r"},
                "1", "5,6", "1", "2,6", "2", "3,6", "3", "4", "4", "5"), "publish rules");
        for (int from = 0; from < ORDERS; from += 100_000) {
            env.redis.await(env.raw.eval(SEED, io.lettuce.core.ScriptOutputType.INTEGER, new String[0],
                    Integer.toString(from), Integer.toString(from + 100_000)), "seed");
        }
    }

    private double benchmark(String tool, List<String> command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(tool, "-h", "127.0.0.1", "-p", Integer.toString(env.redisServer.port()),
                "-c", "50", "-P", "16", "-n", Integer.toString(n), "-r", Integer.toString(ORDERS), "-q"));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        StringBuilder out = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.append(line).append('\n');
            }
        }
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("redis-benchmark failed: " + out);
        }
        Matcher m = Pattern.compile("([0-9.]+) requests per second").matcher(out);
        double last = -1;
        while (m.find()) {
            last = Double.parseDouble(m.group(1));
        }
        if (last < 0) {
            throw new IllegalStateException("no figure in redis-benchmark's output: " + out);
        }
        return last;
    }
}
