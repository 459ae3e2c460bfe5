-- Takes a worker id for ARGV[2] (ip:port), atomically: its sticky id when free, else ARGV[7..]
-- (the id of its cache file), else the lowest free id up to ARGV[3]. An id is free when no lease
-- key exists, or when the lease is this ip:port's own (a restart of the same instance).
-- ARGV: 1 key prefix, 2 owner, 3 largest id, 4 lease ms, 5 the taker's clock ms,
--       6 how long after the pool's keys may have been lost a taker must wait, in ms, 7.. preferred ids.
-- Returns {id, reserved-until recorded for it, ms from which ids not known may be issued}, or nil.
local prefix, owner = ARGV[1], ARGV[2]
local maxId, leaseMs, now, lossWait = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

-- The pool marker says since when this primary has held the pool's keys. A missing marker
-- (FLUSHALL, a restart without persistence) or one written under another run id (a restart,
-- which may have lost the last writes even with persistence, or a failover to a replica that
-- may not have seen them) means leases and reservations may be gone: ids are then issued only a
-- lease after the marker is written again, when every holder that lost its keys has stopped.
local runId = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
local pool = prefix .. 'pool'
local since = redis.call('HGET', pool, 'since')
if (not since) or redis.call('HGET', pool, 'run') ~= runId then
    since = string.format('%.0f', now)
    redis.call('HSET', pool, 'run', runId, 'since', since)
end
local safeFrom = tonumber(since) + lossWait

local function take(id)
    if id == nil or id < 0 or id > maxId or id ~= math.floor(id) then
        return nil
    end
    local lease = prefix .. 'worker:' .. string.format('%d', id)
    local holder = redis.call('GET', lease)
    if holder and holder ~= owner then
        return nil
    end
    local reservedKey = prefix .. 'reserved:' .. string.format('%d', id)
    local reserved = tonumber(redis.call('GET', reservedKey) or '0')
    -- The lease lasts until the taker has waited out both times and renewed once.
    local startsAt = math.max(reserved, safeFrom)
    redis.call('SET', lease, owner, 'PX', string.format('%.0f', leaseMs + math.max(0, startsAt - now)))
    redis.call('SET', prefix .. 'instance:' .. owner, string.format('%d', id))
    return {id, string.format('%.0f', reserved), string.format('%.0f', safeFrom)}
end

local taken = take(tonumber(redis.call('GET', prefix .. 'instance:' .. owner) or ''))
for i = 7, #ARGV do
    taken = taken or take(tonumber(ARGV[i]))
end
for id = 0, maxId do
    if taken then
        return taken
    end
    taken = take(id)
end
return taken
