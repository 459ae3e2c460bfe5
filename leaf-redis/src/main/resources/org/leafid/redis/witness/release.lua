-- Releases one key of the fleet's witness found twice: claims are answered again, nothing carried.
-- KEYS[1]: the key's hash (see claim.lua). Returns 1 when the key was found twice, 0 when it was not.
if redis.call('HEXISTS', KEYS[1], 'twice') == 0 then
  return 0
end
redis.call('HDEL', KEYS[1], 'twice', 'carried')
return 1
