-- Claims the block [start, end) of one key of the fleet's witness, atomically.
-- KEYS[1]: a sorted set of the last blocks, members 'start:end', both 19-digit zero-padded, all of score 0,
--          so that they sort by start as strings (numbers above 2^53 lose nothing, as Lua's would).
-- KEYS[2]: a hash: 'high', the end of the highest block; 'floor', the end of the highest block trimmed away.
-- ARGV: start, end (19-digit zero-padded), how many blocks to keep.
-- Returns '' when the block was recorded; else the witnessed 'high' (the block overlaps one witnessed, or
-- starts below the floor: the store went back), and nothing is recorded.
local start, finish, keep = ARGV[1], ARGV[2], tonumber(ARGV[3])
local high = redis.call('HGET', KEYS[2], 'high') or ''
local floor = redis.call('HGET', KEYS[2], 'floor') or ''
if floor ~= '' and start < floor then
  return high
end
-- Blocks witnessed are disjoint: the one with the highest start below this end overlaps when any does.
local below = redis.call('ZREVRANGEBYLEX', KEYS[1], '(' .. finish, '-', 'LIMIT', 0, 1)
if #below > 0 and string.sub(below[1], 21) > start then
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
    redis.call('HSET', KEYS[2], 'floor', trimmedEnd)
  end
end
return ''
