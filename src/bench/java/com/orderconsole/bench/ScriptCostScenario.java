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
 * seeded in WAIT_PAY, every transition WAIT_PAY → PAID (a repeat of an order is answered -4). Rounds
 * alternate article / current / the script of main d5bdcc2 (before issue 15), orders re-seeded before
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
            redis.call('DEL', 'sc:x', 'sc:s', 'sc:q', 'sc:r')
            redis.call('HSET', 'sc:r', '_v', 1, '_t', '5,6', '1', '2,6', '2', '3,6', '3', '4', '4', '5')
            return 1
            """;
    /** transition.lua as it was on main d5bdcc2, before issue 15. */
    static final String BEFORE = """
-- Atomic order transition: check the rule, write status, bump version, record the outcome.
-- The only code path that changes an order's status in Redis.
--
-- KEYS[1] order hash     {status, version, updateTime, createTime}
-- KEYS[2] rules replica  field "<from>" = "to,to,...", "_t" = terminal list, "_v" = rules version
-- KEYS[3] outbox stream  one entry per outcome (applied or rejected), drained into MySQL
-- KEYS[4] cancel queue   ZSET member = order id; removed once the order leaves WAIT_PAY
-- KEYS[5] stats hash     counters per result code and per edge, live count per status, outbox sequence
-- All five keys share one hash tag, so the script also runs on Redis Cluster.
--
-- ARGV[1] order id   ARGV[2] target status code   ARGV[3] expected version ('' = any)
-- ARGV[4] '1' = override (skip the rules, admin only)   ARGV[5] actor   ARGV[6] source   ARGV[7] reason
--
-- Returns {code, from status (0 if missing), version after the call, now in epoch ms}.
-- Codes: 1 applied, 0 not allowed, -1 state missing, -2 terminal, -3 version conflict,
--        -4 already in target status, -5 rules missing, -6 order record malformed (nothing written
--        but the counter: an outbox entry no one can read must never be made).
-- Time: Redis server clock (TIME), the single time source for updateTime and queue expiry.

local id = ARGV[1]
local target = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local cur = redis.call('HMGET', KEYS[1], 'status', 'version')
if not cur[1] then
  redis.call('HINCRBY', KEYS[5], 'c:-1', 1)
  return {-1, 0, 0, now}
end
local from = tonumber(cur[1])
local version = tonumber(cur[2])
if not from or from ~= math.floor(from) or from < 1 or from > 6
    or not version or version ~= math.floor(version) or version < 0 then
  redis.call('HINCRBY', KEYS[5], 'c:-6', 1)
  return {-6, 0, 0, now}
end

local override = ARGV[4] == '1'
local code
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= version then
  code = -3
elseif from == target then
  code = -4
elseif override then
  code = 1
else
  local rulesVersion = redis.call('HGET', KEYS[2], '_v')
  if not rulesVersion then
    return {-5, from, version, now}
  end
  local terminal = redis.call('HGET', KEYS[2], '_t') or ''
  local allowed = redis.call('HGET', KEYS[2], tostring(from)) or ''
  code = 0
  for s in string.gmatch(terminal, '%d+') do
    if tonumber(s) == from then code = -2 end
  end
  if code == 0 then
    for s in string.gmatch(allowed, '%d+') do
      if tonumber(s) == target then code = 1 end
    end
  end
end

local status = from
if code == 1 then
  version = version + 1
  status = target
  redis.call('HSET', KEYS[1], 'status', target, 'version', version, 'updateTime', now)
  redis.call('HINCRBY', KEYS[5], 'n:' .. from, -1)
  redis.call('HINCRBY', KEYS[5], 'n:' .. target, 1)
  redis.call('HINCRBY', KEYS[5], 'e:' .. from .. '>' .. target, 1)
else
  redis.call('HINCRBY', KEYS[5], 'r:' .. from .. '>' .. target .. ':' .. code, 1)
end
redis.call('HINCRBY', KEYS[5], 'c:' .. code, 1)
-- Keeps the queue honest: only WAIT_PAY orders may have an entry, whatever path got them out.
if status ~= 1 then
  redis.call('ZREM', KEYS[4], id)
end
-- A per-bucket sequence: a Redis restored from an older copy hands out numbers the follower has seen.
local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
redis.call('XADD', KEYS[3], '*', 'o', id, 'f', from, 't', target, 'v', version, 'c', code,
  'a', ARGV[5], 's', ARGV[6], 'r', ARGV[7], 'ts', now, 'n', seq)
return {code, from, version, now}

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
        String before = load(BEFORE);
        double[] best = new double[3];
        double applied = 0;
        for (int round = 0; round < 2; round++) {
            for (int which = 0; which < 3; which++) {
                seed();
                String sha = which == 0 ? article : which == 1 ? current : before;
                List<String> cmd = which == 0
                        ? List.of("EVALSHA", sha, "1", "sc:o:__rand_int__", "2")
                        : List.of("EVALSHA", sha, "5", "sc:o:__rand_int__", "sc:r", "sc:x", "sc:q", "sc:s", "o1", "2", "", "0", "bench", "bench", "");
                double ops = benchmark(tool, cmd);
                best[which] = Math.max(best[which], ops);
                if (which == 1) {
                    // Applied calls: the edge counter (transition.lua no longer writes c:1).
                    Object c1 = env.redis.await(env.raw.hget("sc:s", "e:1>2"), "HGET");
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
        table.add(Row.info("Script cost: transition.lua of main d5bdcc2 (before issue 15), same run; article is "
                + Table.num(best[0] / best[2], 2) + "× as fast", Table.num(best[2], 0), "calls/s"));
    }

    private String load(String script) {
        return env.redis.await(env.raw.scriptLoad(script), "SCRIPT LOAD");
    }

    private void seed() {
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
