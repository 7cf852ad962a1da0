-- Counts one bucket's outcomes from its outbox, so that transition.lua writes no counter on its hot path
-- (issue 15.3: the move counter was a ninth of its cost), and trims the outbox only behind what is counted.
--
-- KEYS[1] stats hash   KEYS[2] outbox stream   (one hash tag)
-- ARGV[1] count at most this many entries (a bound on how long this call holds the server)
-- ARGV[2] trim: delete entries before this stream id ('' = no trim); the follower sends the last id MySQL has.
--         Never past the counted ones: an entry trimmed uncounted would be a move no counter ever shows.
-- ARGV[3] '1' = also return the counters (a reader's "count, then read" in one step)
-- ARGV[4] the follower's own counts of a batch it read: the id the batch starts after ('' = none), ARGV[5] the
--         batch's last id, ARGV[6..] counter, amount pairs. Taken only when the counting stands exactly where the
--         batch starts; otherwise ignored and the stream is counted here instead. The follower parses every entry
--         anyway, and parsing them again here cost Redis about 5 µs an entry (issue 15, follower benchmark).
--
-- Stats fields written: m:<from>><to> per applied edge, r:<from>><to>:<code> per rejected one (as transition.lua
-- wrote them before), and x = the stream id of the last entry counted. Only the one-field form ('e', the form
-- transition.lua writes since) is counted here: the forms before it were counted by the script that wrote them.
-- OutboxCount.ENTRY is the same reading in Java; the two must agree.
--
-- Returns {x or '', trimmed up to ('' = not trimmed), entries left to count ('0' = none), [counter, value]...}.

-- Is stream id a before b? ("<ms>-<seq>"; the parts compared as numbers, both below 2^53 in practice.)
local function before(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am < bm or (am == bm and as < bs)
end

local x = redis.call('HGET', KEYS[1], 'x')
local taken = false
if ARGV[4] and ARGV[4] ~= '' and (x or '0-0') == ARGV[4] then
  for i = 6, #ARGV, 2 do
    redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
  end
  x = ARGV[5]
  redis.call('HSET', KEYS[1], 'x', x)
  taken = true
end

local want = ARGV[2]
local n = 0
-- The stream is read only when something asked for may be uncounted: a reader, or a trim past the counted ones.
if not taken and (want == '' or not x or before(x, want)) then
  local entries = redis.call('XRANGE', KEYS[2], x and ('(' .. x) or '-', '+', 'COUNT', ARGV[1])
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

local trimmed = ''
if want ~= '' and x then
  if before(x, want) then
    want = x
  end
  redis.call('XTRIM', KEYS[2], 'MINID', want)
  trimmed = want
end

local left = '0'
if n >= tonumber(ARGV[1]) then
  left = tostring(#redis.call('XRANGE', KEYS[2], '(' .. x, '+', 'COUNT', 1))
end
local out = {x or '', trimmed, left}
if ARGV[3] == '1' then
  local h = redis.call('HGETALL', KEYS[1])
  for i = 1, #h do
    out[#out + 1] = h[i]
  end
end
return out
