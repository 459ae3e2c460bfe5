-- Gives the lease KEYS[1] up while the process ARGV[1] (its address and token) holds it,
-- recording the final reservation ARGV[2] in KEYS[2]: the holder issued nothing at or after it.
-- Returns 1, or 0 when the lease is not ARGV[1]'s (then nothing is changed).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    return 0
end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[1])
return 1
