-- Counts one bucket's outcomes from its outbox, so that transition.lua writes no counter on its hot path
-- (issue 15.3: the move counter was a ninth of its cost), and trims the outbox only behind what is counted.
--
-- KEYS[1] stats hash   KEYS[2] outbox stream   (one hash tag)
-- ARGV[1] count at most this many entries (a bound on how long this call holds the server)
-- ARGV[2] trim: delete entries before this stream id ('' = no trim); the follower sends the last id MySQL has.
--         Never past the counted ones: an entry trimmed uncounted would be a move no counter ever shows.
-- ARGV[3] '1' = also return the counters (a reader's "count, then read" in one step)
--
-- Stats fields written: m:<from>><to> per applied edge, r:<from>><to>:<code> per rejected one (as transition.lua
-- wrote them before), and x = the stream id of the last entry counted. Only the one-field form ('e', the form
-- transition.lua writes since) is counted here: the forms before it were counted by the script that wrote them.
--
-- Returns {x or '', trimmed up to ('' = not trimmed), entries left to count ('0' = none), [counter, value]...}.

local x = redis.call('HGET', KEYS[1], 'x')
local entries = redis.call('XRANGE', KEYS[2], x and ('(' .. x) or '-', '+', 'COUNT', ARGV[1])
local add = {}
for i = 1, #entries do
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
for k, n in pairs(add) do
  redis.call('HINCRBY', KEYS[1], k, n)
end
if #entries > 0 then
  x = entries[#entries][1]
  redis.call('HSET', KEYS[1], 'x', x)
end

-- Is stream id a before b? ("<ms>-<seq>"; the parts compared as numbers, both below 2^53 in practice.)
local function before(a, b)
  local am, as = string.match(a, '^(%d+)-(%d+)$')
  local bm, bs = string.match(b, '^(%d+)-(%d+)$')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am < bm or (am == bm and as < bs)
end

local trimmed = ''
local want = ARGV[2]
if want ~= '' and x then
  if before(x, want) then
    want = x
  end
  redis.call('XTRIM', KEYS[2], 'MINID', want)
  trimmed = want
end

local left = '0'
if #entries >= tonumber(ARGV[1]) then
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
