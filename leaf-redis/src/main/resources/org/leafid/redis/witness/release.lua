-- Releases one key of the fleet's witness found twice: claims are answered again, nothing carried.
-- KEYS[1]: the key's hash (see claim.lua). Returns 1 when the key was found twice, 0 when it was not.
if tonumber(redis.call('HGET', KEYS[1], 'impossible') or '0') < 2 then
  return 0
end
redis.call('HDEL', KEYS[1], 'impossible', 'carried')
return 1
