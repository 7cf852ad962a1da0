package com.orderconsole.bench;

import com.orderconsole.redis.LuaScript;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server cost of transition.lua next to the source article's minimal script (HGET + HSET + HINCRBY),
 * measured side by side against the same Redis with redis-benchmark (Debian redis-tools: a C client,
 * pipelined, so no JVM competes for the cores): {@code -c 50 -P 16}, random orders out of 1,000,000
 * seeded in WAIT_PAY, the rules copy written by publish_rules.lua, every transition WAIT_PAY → PAID (a
 * repeat of an order is answered -4). Rounds alternate article / transition.lua, orders re-seeded before
 * each round; the best round of each counts.
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

    void run() throws Exception {
        String tool = System.getProperty("bench.redisBenchmark", "redis-benchmark");
        env.fresh();
        String article = load(ARTICLE);
        String current = load(LuaScript.TRANSITION.source());
        double[] best = new double[2];
        double[] usec = {Double.MAX_VALUE, Double.MAX_VALUE};
        double applied = 0;
        for (int round = 0; round < 2; round++) {
            for (int which = 0; which < 2; which++) {
                seed();
                String sha = which == 0 ? article : current;
                List<String> cmd = which == 0
                        ? List.of("EVALSHA", sha, "1", "sc:o:__rand_int__", "2")
                        : List.of("EVALSHA", sha, "5", "sc:o:__rand_int__", "sc:r", "sc:x", "sc:q", "sc:s", "o1", "2", "", "0", "bench", "bench", "");
                env.redis.await(env.raw.configResetstat(), "CONFIG RESETSTAT");
                double ops = benchmark(tool, cmd);
                best[which] = Math.max(best[which], ops);
                usec[which] = Math.min(usec[which], usecPerCall());
                if (which == 1) {
                    // Applied calls: the move counter of the edge.
                    Object c1 = env.redis.await(env.raw.hget("sc:s", "m:1>2"), "HGET");
                    applied = c1 == null ? 0 : Long.parseLong(c1.toString()) * 100.0 / n;
                }
            }
        }
        env.redis.await(env.raw.flushall(), "FLUSHALL");
        double ratio = best[0] / best[1];
        table.add(Row.info("Script cost: the article's HGET + HSET + HINCRBY (redis-benchmark -c 50 -P 16, " + String.format("%,d", n)
                + " calls, best of 2 rounds)", Table.num(best[0], 0), "calls/s"));
        table.add(Row.judged("Script cost: transition.lua, same server, same run (" + Table.num(applied, 0)
                        + " % applied, the rest repeats answered -4)", Table.num(best[1], 0), "calls/s", "≤ 2× the article's cost",
                Table.num(ratio, 2) + "×", ratio <= 2));
        table.add(Row.info("Script cost: server time per call inside Redis (INFO commandstats usec_per_call, best round), article / "
                + "transition.lua; " + Table.num(usec[1] / usec[0], 2) + "×", Table.num(usec[0], 2) + " / " + Table.num(usec[1], 2), "µs"));
    }

    private double usecPerCall() {
        String stat = env.info("commandstats").get("cmdstat_evalsha");
        java.util.regex.Matcher m = Pattern.compile("usec_per_call=([0-9.]+)").matcher(stat == null ? "" : stat);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
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
