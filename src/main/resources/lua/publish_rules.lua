-- Replaces one key slot's copy of the transition rules in one step, so the transition script
-- never sees half a rule set.
--
-- KEYS[1] rules replica hash
-- ARGV[1] rules version   ARGV[2] terminal statuses "5,6"   ARGV[3..] pairs: from code, "to,to"
--
-- Returns the version written.

redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '_v', ARGV[1], '_t', ARGV[2])
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
return tonumber(ARGV[1])
