-- Sets one bucket's live per-status counts to counted values (reconciliation's repair) in one step with
-- the moves count_outbox.lua keeps counting meanwhile: a live count is n:<s> plus the moves into s minus the
-- moves out of s (m:<from>><to>), so n:<s> becomes the counted value minus that net.
--
-- KEYS[1] stats hash   KEYS[2] outbox stream   ARGV[s] counted live orders in status s, one per status (1..#ARGV:
-- the status count comes from OrderStatus through the number of arguments)
-- Returns #ARGV, or 0 with nothing written while the outbox holds entries count_outbox.lua has not counted: their
-- moves are in the orders counted but not yet in m:, so they would be counted twice (the caller counts, then
-- calls again).

local x = redis.call('HGET', KEYS[1], 'x')
if #redis.call('XRANGE', KEYS[2], x and ('(' .. x) or '-', '+', 'COUNT', 1) > 0 then
  return 0
end

local n = #ARGV
local net = {}
for s = 1, n do
  net[s] = 0
end
local h = redis.call('HGETALL', KEYS[1])
for i = 1, #h, 2 do
  local a, b = string.match(h[i], '^m:(%d+)>(%d+)$')
  if a then
    local v = tonumber(h[i + 1]) or 0
    a = tonumber(a)
    b = tonumber(b)
    if net[a] then net[a] = net[a] - v end
    if net[b] then net[b] = net[b] + v end
  end
end
for s = 1, n do
  redis.call('HSET', KEYS[1], 'n:' .. s, tonumber(ARGV[s]) - net[s])
end
return n
