-- Atomic order transition: check the rule, write status, bump version, record the outcome.
-- The only code path that changes an order's status in Redis.
--
-- KEYS[1] order hash     {status, version, updateTime, createTime}
-- KEYS[2] rules replica  field "<from>" = "to,to,...", "_t" = terminal list, "_v" = rules version
-- KEYS[3] outbox stream  one entry per outcome (applied or rejected), drained into MySQL
-- KEYS[4] cancel queue   ZSET member = order id; removed once the order leaves WAIT_PAY
-- KEYS[5] stats hash     counters per applied edge e:<from>><to> and rejected edge r:<from>><to>:<code>,
--                        c:<code> for the codes without an edge (-1, -6), live count per status, outbox sequence
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
-- Cost (issue 15): one HMGET of the rules copy instead of three HGETs and pattern scans, no per-code
-- counter on the common paths; see BENCHMARKS.md for its price next to the article's three-command script.

-- Is status n in a rules list? publish_rules.lua writes "a,b" (one plain find); any other form is scanned.
local function has(list, n)
  if not list or list == '' then
    return false
  end
  if string.find(',' .. list .. ',', ',' .. n .. ',', 1, true) then
    return true
  end
  if string.find(list, '[^%d,]') then
    for s in string.gmatch(list, '%d+') do
      if tonumber(s) == n then
        return true
      end
    end
  end
  return false
end

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
  -- One lookup for the rules version, the terminal list and this status' targets; plain finds, no patterns.
  local r = redis.call('HMGET', KEYS[2], '_v', '_t', tostring(from))
  if not r[1] then
    return {-5, from, version, now}
  end
  if has(r[2], from) then
    code = -2
  elseif has(r[3], target) then
    code = 1
  else
    code = 0
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
-- No 'c:<code>' write here: per result code is the sum of the edge counters above (StatsStore adds them up);
-- only the early returns (-1, -6), which have no edge, count under 'c:'.
-- Keeps the queue honest: only WAIT_PAY orders may have an entry, whatever path got them out.
if status ~= 1 then
  redis.call('ZREM', KEYS[4], id)
end
-- A per-bucket sequence: a Redis restored from an older copy hands out numbers the follower has seen.
local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
redis.call('XADD', KEYS[3], '*', 'o', id, 'f', from, 't', target, 'v', version, 'c', code,
  'a', ARGV[5], 's', ARGV[6], 'r', ARGV[7], 'ts', now, 'n', seq)
return {code, from, version, now}
