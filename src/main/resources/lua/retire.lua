-- Lets a terminal order's state leave Redis after its retention (MySQL holds it durably by then), or
-- keeps it again when an override moved the order out of its terminal status.
-- Only acts on the version the caller has applied to MySQL: a newer version is the caller's next round.
--
-- KEYS[1] order hash
-- ARGV[1] version applied to MySQL   ARGV[2] when the hash leaves Redis (epoch ms, Redis clock; '' = keep it)
-- ARGV[3] 'nx' = only a hash without an expiry (the pass over orders stored before retention existed)
--
-- Returns 1 when the hash's expiry was set or removed, 0 when the hash is absent or at another version.

local version = redis.call('HGET', KEYS[1], 'version')
if version ~= ARGV[1] then
  return 0
end
if ARGV[3] == 'nx' and redis.call('PTTL', KEYS[1]) >= 0 then
  return 0
end
if ARGV[2] == '' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
end
return 1
