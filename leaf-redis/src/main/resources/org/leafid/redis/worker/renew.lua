-- Renews the lease of KEYS[1] while the process ARGV[1] (its address and token) holds it, and
-- raises the reservation KEYS[2] to ARGV[3] (never lowers it). Returns 1, or 0 when the lease is
-- not ARGV[1]'s: another process of the same address is another owner.
-- ARGV: 1 owner, 2 lease ms, 3 reserved-until ms.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local reserved = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[3]) > reserved then
    redis.call('SET', KEYS[2], ARGV[3])
end
return 1
