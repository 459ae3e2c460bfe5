-- Takes a worker id for one process, atomically. A lease belongs to the process that took it
-- (ARGV[3], its address and a random token of its own), never to an address: an id is free only
-- when no lease key exists, whoever's it is. Preferred, in order: the address's sticky id, then
-- ARGV[8..] (the id of its cache file), then the lowest free id up to ARGV[4].
-- ARGV: 1 key prefix, 2 address (ip:port), 3 owner (address and token), 4 largest id, 5 lease ms,
--       6 the taker's clock ms (only to size the lease over the taker's own wait for a reservation,
--       which is on its clock), 7 how long after the pool's keys may have been lost a taker waits, in
--       ms, 8.. preferred ids.
-- Returns {id, reserved-until recorded for it (holders' clocks), ms to wait before issuing (measured
-- on Redis's clock), the address's sticky id when another process holds it or -1, that holder or ''},
-- or {-1, 0, 0, sticky id or -1, holder or ''} when every id is leased.
local prefix, address, owner = ARGV[1], ARGV[2], ARGV[3]
local maxId, leaseMs, takerNow, lossWait = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])

-- Redis's own clock, the one time every taker shares: a taker's clock ahead or behind must not
-- move the pool marker (an hour ahead would block every correct taker, a minute behind would let
-- the next one skip part of the wait). Redis 7 replicates a script's effects, so TIME is allowed.
local time = redis.call('TIME')
local redisNow = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- The pool marker says since when (Redis time) this primary has held the pool's keys. A missing
-- marker (FLUSHALL, a restart without persistence) or one written under another run id (a
-- restart, which may have lost the last writes even with persistence, or a failover to a replica
-- that may not have seen them) means leases and reservations may be gone: ids are then issued
-- only a lease after the marker is written again, when every holder that lost its keys has stopped.
local runId = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
local pool = prefix .. 'pool'
local since = redis.call('HGET', pool, 'since')
if (not since) or redis.call('HGET', pool, 'run') ~= runId then
    since = string.format('%.0f', redisNow)
    redis.call('HSET', pool, 'run', runId, 'since', since)
end
local lossRemaining = math.max(0, tonumber(since) + lossWait - redisNow)

local function take(id)
    if id == nil or id < 0 or id > maxId or id ~= math.floor(id) then
        return nil
    end
    local lease = prefix .. 'worker:' .. string.format('%d', id)
    if redis.call('EXISTS', lease) == 1 then
        return nil
    end
    local reservedKey = prefix .. 'reserved:' .. string.format('%d', id)
    local reserved = tonumber(redis.call('GET', reservedKey) or '0')
    -- The lease lasts until the taker has waited out both times and renewed once.
    local wait = math.max(lossRemaining, reserved - takerNow, 0)
    redis.call('SET', lease, owner, 'PX', string.format('%.0f', leaseMs + wait))
    return {id, string.format('%.0f', reserved), string.format('%.0f', lossRemaining)}
end

local stickyKey = prefix .. 'instance:' .. address
local sticky = tonumber(redis.call('GET', stickyKey) or '')
local stickyHeld, stickyHolder = -1, ''
if sticky then
    local holder = redis.call('GET', prefix .. 'worker:' .. string.format('%d', sticky))
    if holder then
        stickyHeld, stickyHolder = sticky, holder
    end
end

local taken = take(sticky)
for i = 8, #ARGV do
    taken = taken or take(tonumber(ARGV[i]))
end
for id = 0, maxId do
    if taken then
        break
    end
    taken = take(id)
end
if not taken then
    return {-1, '0', '0', stickyHeld, stickyHolder}
end
-- The sticky id stays the address's while another live process holds it: that process's graceful
-- restart gets it back, and this one's id is only lent.
if stickyHeld < 0 then
    redis.call('SET', stickyKey, string.format('%d', taken[1]))
end
taken[4] = stickyHeld
taken[5] = stickyHolder
return taken
