-- Atomic order transition: check the rule, write status, bump version, record the outcome.
-- The only code path that changes an order's status in Redis.
--
-- KEYS[1] order hash     {status, version, updateTime, createTime}
-- KEYS[2] rules replica  field "<from>><to>" present for every allowed move out of a non-terminal status;
--                        "<from>" = "to,to,...", "_t" = terminal list, "_v" = rules version (publish_rules.lua)
-- KEYS[3] outbox stream  one entry per outcome (applied or rejected), drained into MySQL
-- KEYS[4] cancel queue   ZSET member = order id; removed once the order leaves WAIT_PAY
-- KEYS[5] stats hash     counters per applied edge m:<from>><to> and rejected edge r:<from>><to>:<code>,
--                        c:<code> for the codes without an edge (-1, -6), outbox sequence; the live count per
--                        status is n:<status> plus the moves in minus the moves out (StatsStore)
-- All five keys share one hash tag, so the script also runs on Redis Cluster.
--
-- ARGV[1] order id   ARGV[2] target status code   ARGV[3] expected version ('' = any)
-- ARGV[4] '1' = override (skip the rules, admin only)   ARGV[5] actor   ARGV[6] source   ARGV[7] reason
--
-- Returns {code, from status (0 if missing), version after the call, now in epoch ms}.
-- Codes: 1 applied, 0 not allowed, -1 state missing, -2 terminal, -3 version conflict,
--        -4 already in target status, -5 rules missing, -6 order record malformed (nothing written
--        but the counter: an outbox entry no one can read must never be made).
--
-- Outbox entry (compact, issue 15): k = "<order id>,<from>,<to>,<version after>,<code>,<sequence>",
-- a = actor, s = source, r = reason; its time is the stream id's milliseconds. OutboxStore also reads the
-- earlier form (o, f, t, v, c, a, s, r, ts, n), so a backlog written before an upgrade is applied as is.
--
-- Time: the Redis server clock. An outcome takes its time from the outbox entry's id (XADD '*': the
-- server's milliseconds, never behind the bucket's previous entry), so updateTime, the returned time
-- and the entry agree and TIME is called only on the paths that write no entry.
-- Cost (issue 15): on the applied path one field lookup for the rule, no TIME, a four-field entry, no
-- live per-status counter writes. BENCHMARKS.md has its price next to the article's three-command script.

-- Is status n in a rules list ("a,b" as publish_rules.lua writes it; any other form is scanned)?
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

local function clock()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local id = ARGV[1]
local target = tonumber(ARGV[2])

local cur = redis.call('HMGET', KEYS[1], 'status', 'version')
if not cur[1] then
  redis.call('HINCRBY', KEYS[5], 'c:-1', 1)
  return {-1, 0, 0, clock()}
end
local from = tonumber(cur[1])
local version = tonumber(cur[2])
if not from or from ~= math.floor(from) or from < 1 or from > 6
    or not version or version ~= math.floor(version) or version < 0 then
  redis.call('HINCRBY', KEYS[5], 'c:-6', 1)
  return {-6, 0, 0, clock()}
end

local code
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= version then
  code = -3
elseif from == target then
  code = -4
elseif ARGV[4] == '1' then
  code = 1
elseif redis.call('HGET', KEYS[2], from .. '>' .. target) then
  -- publish_rules.lua writes an edge field only out of non-terminal statuses.
  code = 1
else
  -- Not an edge (or a copy published before edge fields existed): the full lookup tells the codes apart.
  local r = redis.call('HMGET', KEYS[2], '_v', '_t', tostring(from))
  if not r[1] then
    return {-5, from, version, clock()}
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
end
-- A per-bucket sequence: a Redis restored from an older copy hands out numbers the follower has seen.
local seq = redis.call('HINCRBY', KEYS[5], 'seq', 1)
local xid = redis.call('XADD', KEYS[3], '*', 'k', id .. ',' .. from .. ',' .. target .. ',' .. version .. ',' .. code .. ',' .. seq,
  'a', ARGV[5], 's', ARGV[6], 'r', ARGV[7])
local now = tonumber(string.sub(xid, 1, string.find(xid, '-', 1, true) - 1))
if code == 1 then
  redis.call('HSET', KEYS[1], 'status', target, 'version', version, 'updateTime', now)
  -- One counter write, not three: StatsStore derives the live counts from n: and these moves. (Scripts before
  -- issue 15 kept e: with n: moved per call; both are read, so counters written before an upgrade still add up.)
  redis.call('HINCRBY', KEYS[5], 'm:' .. from .. '>' .. target, 1)
else
  redis.call('HINCRBY', KEYS[5], 'r:' .. from .. '>' .. target .. ':' .. code, 1)
end
-- Keeps the queue honest: only WAIT_PAY orders may have an entry, whatever path got them out.
if status ~= 1 then
  redis.call('ZREM', KEYS[4], id)
end
return {code, from, version, now}
