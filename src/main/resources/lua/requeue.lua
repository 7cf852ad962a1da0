-- Sets (or moves) an order's cancel-queue entry, only while the order waits for payment.
-- ZADD updates an existing member's score, so re-queuing never duplicates an entry.
--
-- KEYS[1] order hash   KEYS[2] cancel queue   (one hash tag)
-- ARGV[1] order id   ARGV[2] new expiry, epoch ms
--
-- Returns 1 queued, 0 order not in WAIT_PAY (entry removed), -1 order state missing.

local status = redis.call('HGET', KEYS[1], 'status')
if not status then
  return -1
end
if status ~= '1' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
