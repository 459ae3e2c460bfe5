-- Claims the block [start, end) of one key of the fleet's witness, atomically.
-- KEYS[1]: a sorted set of the last blocks, members 'start:end', both 19-digit zero-padded, all of score 0,
--          so that they sort by start as strings (numbers above 2^53 lose nothing, as Lua's would).
-- KEYS[2]: a hash: 'high', the end of the highest block; 'floor', the end of the highest block trimmed away;
--          'carried', the highest end a went-back claim was answered with (forgotten once the floor passes it);
--          'twice', present when two databases were seen answering for the key at once.
-- ARGV: start, end (19-digit zero-padded), how many blocks to keep.
-- Returns '' when the block was recorded; 'twice' when the key is found twice (nothing is served until an
-- operator releases it); else the witnessed 'high' (the block overlaps one witnessed, or starts below the
-- floor: the store went back), and nothing is recorded. The rule is leaf-core's WitnessedBlocks.claim.
local start, finish, keep = ARGV[1], ARGV[2], tonumber(ARGV[3])
if redis.call('HEXISTS', KEYS[2], 'twice') == 1 then
  return 'twice'
end
local high = redis.call('HGET', KEYS[2], 'high') or ''
local floor = redis.call('HGET', KEYS[2], 'floor') or ''
local carried = redis.call('HGET', KEYS[2], 'carried') or ''
-- Blocks witnessed are disjoint: the one with the highest start below this end overlaps when any does.
local below = redis.call('ZREVRANGEBYLEX', KEYS[1], '(' .. finish, '-', 'LIMIT', 0, 1)
local overlapsKept = #below > 0 and string.sub(below[1], 21) > start
if overlapsKept or (floor ~= '' and start < floor) then
  if overlapsKept and carried ~= '' and start >= carried then
    redis.call('HSET', KEYS[2], 'twice', start .. ':' .. finish)
    return 'twice'
  end
  if carried == '' or high > carried then
    redis.call('HSET', KEYS[2], 'carried', high)
  end
  return high
end
redis.call('ZADD', KEYS[1], 0, start .. ':' .. finish)
if high == '' or finish > high then
  redis.call('HSET', KEYS[2], 'high', finish)
end
local size = redis.call('ZCARD', KEYS[1])
if size > keep then
  local trimmed = redis.call('ZRANGE', KEYS[1], 0, size - keep - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, size - keep - 1)
  local trimmedEnd = string.sub(trimmed[#trimmed], 21)
  if floor == '' or trimmedEnd > floor then
    floor = trimmedEnd
    redis.call('HSET', KEYS[2], 'floor', trimmedEnd)
  end
  if carried ~= '' and floor >= carried then
    redis.call('HDEL', KEYS[2], 'carried')
  end
end
return ''
