-- Replaces one key slot's copy of the transition rules in one step, so the transition script
-- never sees half a rule set.
--
-- KEYS[1] rules replica hash
-- ARGV[1] rules version   ARGV[2] terminal statuses "5,6"   ARGV[3..] pairs: from code, "to,to"
--
-- Writes "_v", "_t", "<from>" = "to,to" and, for every allowed move out of a non-terminal status, a field
-- "<from>><to>" = 1: transition.lua's one-field lookup on its common path (issue 15).
-- Returns the version written.

local terminal = {}
for s in string.gmatch(ARGV[2], '%d+') do
  terminal[s] = true
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '_v', ARGV[1], '_t', ARGV[2])
for i = 3, #ARGV, 2 do
  local from = ARGV[i]
  redis.call('HSET', KEYS[1], from, ARGV[i + 1])
  if not terminal[tostring(tonumber(from))] then
    for to in string.gmatch(ARGV[i + 1], '%d+') do
      redis.call('HSET', KEYS[1], tonumber(from) .. '>' .. tonumber(to), 1)
    end
  end
end
return tonumber(ARGV[1])
