-- Claims the block [start, end) of one key of the fleet's witness, atomically. The rule is leaf-core's
-- WitnessedBlocks.claim; numbers are 19-digit zero-padded strings, compared as strings (Lua's numbers
-- lose digits above 2^53).
-- KEYS[1]: a sorted set of the last blocks, members 'start:end:claim', all of score 0, so that they sort
--          by start (members of the form before claims were named, 'start:end', sort the same).
-- KEYS[2]: a hash: 'high', the end of the highest block; 'floor', the end of the highest block trimmed away;
--          'carried', the highest end a went-back claim was answered with; 'impossible', blocks since then
--          that one database cannot give (2: found twice). Both forgotten once the floor passes 'carried'.
-- ARGV: start, end, how many blocks to keep, the claim's id (the same when the claim is sent again).
-- Returns 'ok' when the block is recorded (or was, by this claim); 'twice' when the key is found twice
-- (nothing is served until an operator releases it); else the witnessed 'high': the block overlaps one
-- witnessed, or starts below the floor (the store went back), and is not recorded.
local start, finish, keep, claim = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local impossible = tonumber(redis.call('HGET', KEYS[2], 'impossible') or '0')
if impossible >= 2 then
  return 'twice'
end
if redis.call('ZSCORE', KEYS[1], start .. ':' .. finish .. ':' .. claim) then
  return 'ok'
end
local high = redis.call('HGET', KEYS[2], 'high') or ''
if high == '' and redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.error_reply('the witness ' .. KEYS[2] .. ' is missing while ' .. KEYS[1] .. ' holds blocks: nothing'
      .. ' is served until an operator who knows what was served deletes both')
end
local floor = redis.call('HGET', KEYS[2], 'floor') or ''
local carried = redis.call('HGET', KEYS[2], 'carried') or ''
-- Blocks witnessed are disjoint: the one with the highest start below this end overlaps when any does.
local below = redis.call('ZREVRANGEBYLEX', KEYS[1], '(' .. finish, '-', 'LIMIT', 0, 1)
local overlapsKept = #below > 0 and string.sub(below[1], 21, 39) > start
if overlapsKept or (floor ~= '' and start < floor) then
  if overlapsKept and carried ~= '' and start >= carried then
    if redis.call('HINCRBY', KEYS[2], 'impossible', 1) >= 2 then
      return 'twice'
    end
  end
  if carried == '' or high > carried then
    redis.call('HSET', KEYS[2], 'carried', high)
  end
  return high
end
redis.call('ZADD', KEYS[1], 0, start .. ':' .. finish .. ':' .. claim)
if high == '' or finish > high then
  redis.call('HSET', KEYS[2], 'high', finish)
end
local size = redis.call('ZCARD', KEYS[1])
if size > keep then
  local trimmed = redis.call('ZRANGE', KEYS[1], 0, size - keep - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, size - keep - 1)
  local trimmedEnd = string.sub(trimmed[#trimmed], 21, 39)
  if floor == '' or trimmedEnd > floor then
    floor = trimmedEnd
    redis.call('HSET', KEYS[2], 'floor', trimmedEnd)
  end
  if carried ~= '' and floor >= carried then
    redis.call('HDEL', KEYS[2], 'carried', 'impossible')
  end
end
return 'ok'
