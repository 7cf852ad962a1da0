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
-- ARGV[8] required from status ('' or absent = any): compare-and-set on the status, answered -3 like a version
--         that moved on. The timeout cancel sends '1': rules may allow cancelling a paid order (a refund), and a
--         payment landing between the sweeper's read of the queue and its cancel must win.
--
-- Returns ONE bulk string "<code>,<from status (0 if missing)>,<version after the call>,<now, epoch ms>",
-- e.g. "1,1,2,1764577000123" (OrderStateStore.transitionAsync reads it). Not a table: Redis 6.2 writes a
-- script's array reply with a deferred length, as extra reply-list nodes and so extra write()s for a
-- pipelined client; measured (issue 15, redis-benchmark -c 50 -P 16) a table reply cost 3-5 µs of server
-- CPU per call outside the EVALSHA's own time, a third of this script's whole cost.
-- Codes: 1 applied, 0 not allowed, -1 state missing, -2 terminal, -3 version conflict (or not in ARGV[8]'s status),
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
-- live per-status counter writes, and no number-to-text conversion but the new version's: every Lua number
-- put into a string goes through sprintf("%.14g"), so the texts at hand (the stored status, ARGV[2], the
-- stream id's milliseconds) are reused. BENCHMARKS.md has the price next to the article's three-command script.

-- The status codes as stored and sent: the common case needs no tonumber/tostring.
local CODE = {['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6}

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

local cur = redis.call('HMGET', KEYS[1], 'status', 'version')
if not cur[1] then
  redis.call('HINCRBY', KEYS[5], 'c:-1', '1')
  return '-1,0,0,' .. clock()
end
-- fs / ts: the statuses as text, in the form the entry, the counters and the hash have always had.
local fs = cur[1]
local from = CODE[fs]
if not from then
  -- Not in the stored form (e.g. "2.0"): read as a number, as before; a whole 1..6 is accepted.
  from = tonumber(fs)
  if from and from % 1 == 0 and from >= 1 and from <= 6 then
    fs = tostring(from)
  else
    from = nil
  end
end
local version = tonumber(cur[2])
if not from or not version or version % 1 ~= 0 or version < 0 then
  redis.call('HINCRBY', KEYS[5], 'c:-6', '1')
  return '-6,0,0,' .. clock()
end
local ts = ARGV[2]
local target = CODE[ts]
if not target then
  target = tonumber(ts)
  if not target then
    return redis.error_reply('ERR target status ' .. ts .. ' is not a number')
  end
  ts = tostring(target)
end

local code
local only = ARGV[8]
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= version then
  code = -3
elseif only and only ~= '' and only ~= fs then
  code = -3
elseif from == target then
  code = -4
elseif ARGV[4] == '1' then
  code = 1
elseif redis.call('HGET', KEYS[2], fs .. '>' .. ts) then
  -- publish_rules.lua writes an edge field only out of non-terminal statuses.
  code = 1
else
  -- Not an edge (or a copy published before edge fields existed): the full lookup tells the codes apart.
  local r = redis.call('HMGET', KEYS[2], '_v', '_t', fs)
  if not r[1] then
    return '-5,' .. fs .. ',' .. tostring(version) .. ',' .. clock()
  end
  if has(r[2], from) then
    code = -2
  elseif has(r[3], target) then
    code = 1
  else
    code = 0
  end
end

-- A per-bucket sequence: a Redis restored from an older copy hands out numbers the follower has seen.
local seq = redis.call('HINCRBY', KEYS[5], 'seq', '1')
local cs, vs
if code == 1 then
  cs = '1'
  vs = tostring(version + 1)
else
  cs = tostring(code)
  vs = tostring(version)
end
local xid = redis.call('XADD', KEYS[3], '*', 'k', id .. ',' .. fs .. ',' .. ts .. ',' .. vs .. ',' .. cs .. ',' .. seq,
  'a', ARGV[5], 's', ARGV[6], 'r', ARGV[7])
local now = string.sub(xid, 1, string.find(xid, '-', 1, true) - 1)
if code == 1 then
  redis.call('HSET', KEYS[1], 'status', ts, 'version', vs, 'updateTime', now)
  -- One counter write, not three: StatsStore derives the live counts from n: and these moves. (Scripts before
  -- issue 15 kept e: with n: moved per call; both are read, so counters written before an upgrade still add up.)
  redis.call('HINCRBY', KEYS[5], 'm:' .. fs .. '>' .. ts, '1')
else
  redis.call('HINCRBY', KEYS[5], 'r:' .. fs .. '>' .. ts .. ':' .. cs, '1')
end
-- Keeps the queue honest: only WAIT_PAY orders may have an entry, whatever path got them out.
if (code == 1 and target or from) ~= 1 then
  redis.call('ZREM', KEYS[4], id)
end
return cs .. ',' .. fs .. ',' .. vs .. ',' .. now
