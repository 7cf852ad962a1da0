-- Atomic order transition: check the rule, write status, bump version, record the outcome.
-- The only code path that changes an order's status in Redis.
--
-- KEYS[1] order hash     {status, version, updateTime, createTime}
-- KEYS[2] rules replica  field "<from>><to>" present for every allowed move out of a non-terminal status;
--                        "<from>" = "to,to,...", "_t" = terminal list, "_v" = rules version (publish_rules.lua)
-- KEYS[3] outbox stream  one entry per outcome (applied or rejected), drained into MySQL
-- KEYS[4] cancel queue   ZSET member = order id; removed once the order leaves WAIT_PAY
-- KEYS[5] stats hash     c:<code> for the codes that write no entry (-1, -6). The counters per applied edge
--                        m:<from>><to> and rejected edge r:<from>><to>:<code> are counted from the entries by
--                        count_outbox.lua (issue 15.3); the live count per status is n:<status> plus the moves in
--                        minus the moves out (StatsStore)
-- All five keys share one hash tag, so the script also runs on Redis Cluster.
-- KEYS[6] data-set marker (osm:epoch), KEYS[7] fence key (osm:fenced): optional, single server only (see "The fence")
--
-- ARGV[1] order id
-- ARGV[2] target status code, alone (the common case) or followed by guards: "<target>,<expected version or ''>,
--         <override 0|1>,<required from status or ''>". Expected version: compare-and-set on the version. Override:
--         skip the rules (admin only). Required from status: compare-and-set on the status, answered -3 like a
--         version that moved on; the timeout cancel sends WAIT_PAY, since rules may allow cancelling a paid order (a
--         refund) and a payment landing between the sweeper's read of the queue and its cancel must win.
-- ARGV[3] "<actor>\n<source>\n<reason>": the entry's texts (OrderStateStore joins them; actor and source hold no
--         control character).
-- ARGV[4] the marker MySQL recorded, as the caller holds it ('' for none), ARGV[5] the bucket's outbox entry MySQL applied
--         last, as the caller knows it ('' when no look is due): with KEYS[6] and KEYS[7] only.
-- Few arguments, packed: Redis copies every argument into a table before the script runs, about a thousand
-- instructions each (issue 15.3, callgrind).
--
-- Returns ONE bulk string "<code>,<from status (0 if missing)>,<version after the call>,<now, epoch ms>",
-- e.g. "1,1,2,1764577000123" (OrderStateStore.transitionAsync reads it). Not a table: Redis 6.2 writes a
-- script's array reply with a deferred length, as extra reply-list nodes and so extra write()s for a
-- pipelined client; measured (issue 15, redis-benchmark -c 50 -P 16) a table reply cost 3-5 µs of server
-- CPU per call outside the EVALSHA's own time, a third of this script's whole cost.
-- Codes: 1 applied, 0 not allowed, -1 state missing, -2 terminal, -3 version conflict (or not in the required status),
--        -4 already in target status (also when the expected version is one behind and the order is in the target: a
--        repeat), -5 rules missing, -6 order record malformed (nothing written
--        but the counter: an outbox entry no one can read must never be made), -7 the data set is fenced (counted,
--        nothing else written); "-8,0,0,0": the fence wants MySQL's word, nothing written (see "The fence").
--
-- Outbox entry, one field (issue 15.3): e = "<order id>,<from>,<to>,<version after>,<code>\n<actor>\n<source>\n<reason>"
-- (the reason is last, so it may hold anything); its time is the stream id's milliseconds, or 'at' = "<epoch ms>" when
-- the entry has that second field (see "Time" below). OutboxStore also reads the
-- two forms before it (k, a, s, r and o, f, t, v, c, a, s, r, ts, n), so a backlog written before an upgrade is
-- applied as is; those were counted by the script that wrote them, which is how count_outbox.lua tells them apart.
-- No sequence number: the follower finds a Redis that went back in time by the entry it applied last, which the
-- outbox always keeps (Follower, "fence"), instead of a counter written on every call.
--
-- Time: the Redis server clock, read by TIME in this script; no caller passes a time. An outcome takes its time from
-- the outbox entry's id (XADD '*': the server's milliseconds), so updateTime, the returned time and the entry agree.
-- '*' is never behind the stream's last id, so when that id runs more than 1 s ahead of TIME (an entry XADDed by hand
-- with a future id, a clock stepped back) the entry carries TIME's milliseconds in a second field 'at', which is then
-- its time (OutboxStore); the follower sets aside an entry dated far from Redis' clock (EntryClock).
-- Cost (issue 15): on the applied path one field lookup for the rule, one TIME, a one-field entry, no counter
-- write, no table or number parsing for the statuses, and one number-to-text conversion (the new version; every
-- Lua number put into a string goes through sprintf), so the texts at hand (the stored status, ARGV[2], the stream
-- id's milliseconds) are reused. BENCHMARKS.md has the price next to the article's three-command script.

-- No table or function is made here on the applied path: each is an allocation the Lua collector then pays for
-- (issue 15.3, callgrind: a table of the six status codes built per call cost more than the lookups it saved). So
-- the status parsing and the clock are written out where they are used.

local id = ARGV[1]

-- The fence: nothing moves on a Redis behind MySQL (restored from an older copy). Checked here, in the script, so that
-- it costs no round trip of its own; only where the caller passes KEYS[6] and KEYS[7], i.e. on a single server (on a
-- Redis Cluster those two keys live in another slot, and TransitionService reads them ahead of the script).
-- Fenced: -7. Another marker than ARGV[4], or an outbox that no longer reaches ARGV[5] (the follower's trim always keeps
-- the entry MySQL applied last): "-8,0,0,0", nothing written, and the caller asks MySQL (Follower.fenceHolds) before it
-- refuses or runs the script again without the fence. No marker at all: Redis lost its data, healed below (-1, -5).
if KEYS[6] then
  if redis.call('EXISTS', KEYS[7]) == 1 then
    redis.call('HINCRBY', KEYS[5], 'c:-7', '1')
    local t = redis.call('TIME')
    return '-7,0,0,' .. (t[1] * 1000 + math.floor(t[2] / 1000))
  end
  if ARGV[4] ~= '' then
    local m = redis.call('GET', KEYS[6])
    if m and (m ~= ARGV[4] or (ARGV[5] ~= '' and not redis.call('XRANGE', KEYS[3], ARGV[5], '+', 'COUNT', 1)[1])) then
      return '-8,0,0,0'
    end
  end
end

local cur = redis.call('HMGET', KEYS[1], 'status', 'version')
if not cur[1] then
  -- A hash that exists without its status is malformed (issue 33.6), not a missing order: set aside and restorable
  -- from MySQL, never answered "not found". Only this path pays the EXISTS.
  if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('HINCRBY', KEYS[5], 'c:-6', '1')
    local t = redis.call('TIME')
    return '-6,0,0,' .. (t[1] * 1000 + math.floor(t[2] / 1000))
  end
  redis.call('HINCRBY', KEYS[5], 'c:-1', '1')
  local t = redis.call('TIME')
  return '-1,0,0,' .. (t[1] * 1000 + math.floor(t[2] / 1000))
end
-- fs / ts: the statuses as text, in the form the entry, the counters and the hash have always had; from / target:
-- as numbers 1..${STATUS_COUNT} (LuaScript writes in the count, from OrderStatus).
-- Record numbers (issue 25): the status and the version are read only in their canonical decimal form, the grammar
-- RecordNumber.java documents for the Java side: "0" or a digit 1-9 and at most 14 more digits; no sign, space,
-- exponent, hex, fraction or leading zero. tonumber() accepts ' 2', '0x2' and '1e3', so a record the console called
-- malformed was moved here as PAID, or jumped from version 1 to 1001. A status is therefore one byte, a code 1..${STATUS_COUNT} (at most 9 statuses: StatusSetTest).
local fs = cur[1]
local from = -1
if #fs == 1 then
  from = string.byte(fs) - 48
end
local vt = cur[2]
local version = nil
if vt and #vt <= 15 and (vt == '0' or string.find(vt, '^[1-9]%d*$')) then
  version = tonumber(vt)
end
if from < 1 or from > ${STATUS_COUNT} or not version then
  redis.call('HINCRBY', KEYS[5], 'c:-6', '1')
  local t = redis.call('TIME')
  return '-6,0,0,' .. (t[1] * 1000 + math.floor(t[2] / 1000))
end
local ts = ARGV[2]
local guards = nil
if #ts ~= 1 then
  local rest
  ts, rest = string.match(ts, '^([^,]*),?(.*)$')
  if rest ~= '' then
    guards = rest
  end
end
local target
if #ts == 1 then
  target = string.byte(ts) - 48
  if target < 0 or target > 9 then
    target = nil
  end
else
  target = tonumber(ts)
  if target then
    ts = tostring(target)
  end
end
if not target then
  return redis.error_reply('ERR target status ' .. ts .. ' is not a number')
end

local code = nil
local override = false
if guards then
  local expected, ov, only = string.match(guards, '^(%d*),([01]),(%d?)$')
  if not ov then
    return redis.error_reply('ERR guards ' .. guards .. ' are not "<version>,<0|1>,<status>"')
  end
  override = ov == '1'
  if only ~= '' and only ~= fs then
    code = -3
  elseif expected ~= '' and tonumber(expected) ~= version then
    -- The order stands exactly where this very move took it (the target, one version on): a callback sent again with
    -- the version it was first sent with. Answered and recorded as the repeat it is, not as a conflict that would feed
    -- the rejection alerts; an override stays a conflict (an admin's move is checked against what they saw).
    if from == target and version == tonumber(expected) + 1 and not override then
      code = -4
    else
      code = -3
    end
  end
end
if code then
  -- a compare-and-set that failed (-3), or the repeat it showed (-4): nothing else is looked at
elseif from == target then
  code = -4
elseif override then
  code = 1
elseif redis.call('HGET', KEYS[2], fs .. '>' .. ts) then
  -- publish_rules.lua writes an edge field only out of non-terminal statuses.
  code = 1
else
  -- Not an edge (or a copy published before edge fields existed): the full lookup tells the codes apart.
  local r = redis.call('HMGET', KEYS[2], '_v', '_t', fs)
  if not r[1] then
    local t = redis.call('TIME')
    return '-5,' .. fs .. ',' .. string.format('%d', version) .. ',' .. (t[1] * 1000 + math.floor(t[2] / 1000))
  end
  -- Is status n in a rules list ("a,b" as publish_rules.lua writes it)?
  local function has(list, n)
    for v in string.gmatch(list or '', '%d+') do
      if tonumber(v) == n then
        return true
      end
    end
    return false
  end
  if has(r[2], from) then
    code = -2
  elseif has(r[3], target) then
    code = 1
  else
    code = 0
  end
end

local cs, vs
if code == 1 then
  cs = '1'
  vs = string.format('%d', version + 1)
else
  cs = string.format('%d', code)
  vs = string.format('%d', version)
end
local text = id .. ',' .. fs .. ',' .. ts .. ',' .. vs .. ',' .. cs .. '\n' .. ARGV[3]
local t = redis.call('TIME')
local clock = t[1] * 1000 + math.floor(t[2] / 1000)
local xid = redis.call('XADD', KEYS[3], '*', 'e', text)
local now = string.match(xid, '^%d+')
if tonumber(now) > clock + 1000 then
  -- The stream's last id is ahead of Redis' clock (an entry XADDed by hand with a future id, or the clock stepped
  -- back), so '*' dated this entry by that id, not by the clock. The entry is written again carrying the clock's time
  -- in 'at', and the order, the answer and MySQL take that time: an entry nobody can date forward moves no clock.
  redis.call('XDEL', KEYS[3], xid)
  now = string.format('%d', clock)
  redis.call('XADD', KEYS[3], '*', 'e', text, 'at', now)
end
if code == 1 then
  redis.call('HSET', KEYS[1], 'status', ts, 'version', vs, 'updateTime', now)
end
-- Keeps the queue honest: only WAIT_PAY orders may have an entry, whatever path got them out.
if (code == 1 and target or from) ~= 1 then
  redis.call('ZREM', KEYS[4], id)
end
return cs .. ',' .. fs .. ',' .. vs .. ',' .. now
