-- Counts one bucket's outcomes from its outbox, so that transition.lua writes no counter on its hot path
-- (issue 15.3: the move counter was a ninth of its cost), and trims the outbox only behind what is counted.
--
-- KEYS[1] stats hash   KEYS[2] outbox stream   (one hash tag)
-- ARGV[1] count at most this many entries (a bound on how long this call holds the server)
-- ARGV[2] trim: delete entries before this stream id ('' = no trim); the follower sends the last id MySQL has.
--         Never past the counted ones: an entry trimmed uncounted would be a move no counter ever shows.
-- ARGV[3] the follower's own counts of a batch it read: the id the batch starts after ('' = none), ARGV[4] the
--         batch's last id, ARGV[5..] counter, amount pairs. Taken only when the counting stands exactly where the
--         batch starts; otherwise ignored, and what of the batch is uncounted is counted here instead. The follower
--         parses every entry anyway, and parsing them again here cost Redis about 5 µs an entry (issue 15, follower
--         benchmark: 7.5 µs of Redis CPU per change against 2.8).
--
-- Stats fields written: m:<from>><to> per applied edge, r:<from>><to>:<code> per rejected one (as transition.lua
-- wrote them before), and x = the stream id of the last entry counted. Only the one-field form ('e', the form
-- transition.lua writes since) is counted here: the forms before it were counted by the script that wrote them.
-- OutboxCount.ENTRY is the same reading in Java; the two must agree.
--
-- Readers add up what is pending themselves (OutboxCount.read) and write nothing.
--
-- Returns the number of entries left to count within the bound of this call (0 = none).

-- Is stream id a before b? ("<ms>-<seq>"; the parts compared as numbers, both below 2^53 in practice.)
local function before(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am < bm or (am == bm and as < bs)
end

local x = redis.call('HGET', KEYS[1], 'x')
local want = ARGV[2]
-- How far to count: a batch no further than its end, a trim no further than the trim, a plain count to the end. So the
-- follower never counts here what it will count itself (its next batch), which under a storm turned into the stream
-- parsed in Lua a thousand entries a call, in front of the payments (issue 15.5 measured 23.5 ms p99 that way).
local upto = '+'
if ARGV[3] and ARGV[3] ~= '' then
  upto = ARGV[4]
  if (x or '0-0') == ARGV[3] then
    for i = 5, #ARGV, 2 do
      redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
    end
    x = ARGV[4]
    redis.call('HSET', KEYS[1], 'x', x)
  end
elseif want ~= '' then
  upto = want
end

local n = 0
if upto == '+' or not x or before(x, upto) then
  local entries = redis.call('XRANGE', KEYS[2], x and ('(' .. x) or '-', upto, 'COUNT', ARGV[1])
  n = #entries
  local add = {}
  for i = 1, n do
    local f = entries[i][2]
    if f[1] == 'e' then
      -- "<order>,<from>,<to>,<version>,<code>\n...": the statuses and code as transition.lua wrote them.
      local fs, ts, cs = string.match(f[2], '^[^,\n]*,(%d+),(%d+),%d+,(%-?%d+)\n')
      if fs then
        local k
        if cs == '1' then
          k = 'm:' .. fs .. '>' .. ts
        else
          k = 'r:' .. fs .. '>' .. ts .. ':' .. cs
        end
        add[k] = (add[k] or 0) + 1
      end
    end
  end
  for k, c in pairs(add) do
    redis.call('HINCRBY', KEYS[1], k, c)
  end
  if n > 0 then
    x = entries[n][1]
    redis.call('HSET', KEYS[1], 'x', x)
  end
end

if want ~= '' and x then
  if before(x, want) then
    want = x
  end
  redis.call('XTRIM', KEYS[2], 'MINID', want)
end

if n >= tonumber(ARGV[1]) then
  return #redis.call('XRANGE', KEYS[2], '(' .. x, upto, 'COUNT', 1)
end
return 0
