-- Creates an order's Redis state unless it already exists (creation, or rebuild from MySQL).
-- Never overwrites: existing state is newer than or equal to any copy we could rebuild from.
--
-- KEYS[1] order hash   KEYS[2] cancel queue   KEYS[3] stats hash   (one hash tag)
-- ARGV[1] order id   ARGV[2] status code   ARGV[3] version   ARGV[4] updateTime (epoch ms)
-- ARGV[5] createTime (epoch ms)   ARGV[6] expiry for the cancel queue (epoch ms, '' = none)
-- ARGV[7] when the hash leaves Redis (epoch ms, '' = never): a terminal order kept for its retention
--
-- Returns {1} created or {0} existed (the existing record is not read here: OrderStateStore reads it with the one
-- grammar of record numbers, RecordNumber).

if redis.call('EXISTS', KEYS[1]) == 1 then
  return {0}
end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'version', ARGV[3], 'updateTime', ARGV[4], 'createTime', ARGV[5])
if ARGV[7] and ARGV[7] ~= '' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[7])
end
redis.call('HINCRBY', KEYS[3], 'n:' .. ARGV[2], 1)
if ARGV[2] == '1' and ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
end
return {1}
