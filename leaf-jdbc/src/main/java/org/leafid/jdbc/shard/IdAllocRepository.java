package org.leafid.jdbc.shard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.core.shard.AppLimitReachedException;
import org.leafid.core.shard.ShardApp;
import org.leafid.core.shard.ShardBlock;
import org.leafid.core.shard.ShardStore;
import org.leafid.core.shard.ShardStoreException;
import org.leafid.core.shard.UnknownAppException;
import org.leafid.core.shard.UnknownShardException;
import org.leafid.jdbc.reservation.HighWaterMarks;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;
import org.leafid.jdbc.reservation.GuardedReservation;
import org.leafid.jdbc.reservation.OneTripReservation;
import org.leafid.jdbc.reservation.ReservationSteps;
import org.leafid.jdbc.reservation.StoreIdentityGuard;

/**
 * {@link ShardStore} on {@code id_alloc} through MyBatis, with the block rule of the Redis-queue
 * services that own the table: UPDATE {@code max_id = max_id + step * blocks}, then SELECT, in one
 * transaction. The UPDATE locks the row, so the SELECT reads the {@code max_id} this transaction
 * set and the block {@code old max_id + 1 .. new max_id} is this caller's alone; a deployment that
 * already issued {@code max_id} never sees it again.
 *
 * <p>The apps view and the admin API read and create rows here too ({@link #rows}, {@link #createApp}):
 * one repository of {@code id_alloc}, so the generator and the admin side never see two stores.
 */
public final class IdAllocRepository implements ShardStore {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = SqlDialect.scripts("id_alloc.sql");
    /** Shards per app: an ID carries the shard in 6 bits. */
    public static final int SHARDS = 64;
    /** App ids 0..255: an ID carries the app in 8 bits. */
    public static final int MAX_APP_ID = 255;

    private static final int MAX_APP_NAME = 128;
    private static final int MAX_DESCRIPTION = 255;

    private final SqlSessionFactory sessions;
    private final GuardedReservation reservation;

    /** @param sessions Leaf's one session factory ({@code LeafSqlSessions}) */
    public IdAllocRepository(SqlSessionFactory sessions) {
        this(sessions, Sleeper.system());
    }

    /** @param sleeper how a reservation pauses before it is tried again ({@link SqlRetry}) */
    public IdAllocRepository(SqlSessionFactory sessions, Sleeper sleeper) {
        this(sessions, sleeper, new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS));
    }

    /** @param identity the check that the database answering is the one this fleet wrote to */
    public IdAllocRepository(SqlSessionFactory sessions, Sleeper sleeper, StoreIdentityGuard identity) {
        this.sessions = sessions;
        this.reservation = new GuardedReservation(sessions, "id_alloc", TABLE_SCRIPT, IdAllocOneTripMapper.class,
                sleeper, identity);
    }

    @Override
    public ShardBlock reserve(int appId, int shardId, int blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks must be at least 1: " + blocks);
        }
        return reservation.reserve(new ShardSteps(appId, shardId, blocks));
    }

    /**
     * One (app, shard)'s row, with the block rule of the services that own the table: UPDATE
     * {@code max_id = max_id + step * blocks}, then SELECT; the block is {@code old max_id + 1 ..
     * new max_id}. Its mark holds whatever happened to the row since (an app deleted and created
     * again starts at 0).
     */
    private record ShardSteps(int appId, int shardId, int blocks) implements ReservationSteps<ShardBlock> {

        @Override
        public String markKey() {
            return IdAllocRepository.markKey(appId, shardId);
        }

        @Override
        public OneTripReservation reserveInOneTrip(SqlSession session, String markName) {
            return session.getMapper(IdAllocOneTripMapper.class).reserve(appId, shardId, blocks, markName);
        }

        @Override
        public Advanced advance(SqlSession session) {
            IdAllocMapper mapper = session.getMapper(IdAllocMapper.class);
            int updated = mapper.advanceMaxId(appId, shardId, blocks);
            IdAllocRow row = mapper.find(appId, shardId);
            if (row == null) {
                throw mapper.countRows(appId) > 0
                        ? new UnknownShardException(appId, shardId) : new UnknownAppException(appId);
            }
            if (updated == 0) {
                throw refusal(row);
            }
            return new Advanced(row.maxId(), row.step(), row.maxLimitId());
        }

        @Override
        public void moveMaxIdTo(SqlSession session, long maxId) {
            session.getMapper(IdAllocMapper.class).moveMaxIdTo(appId, shardId, maxId);
        }

        @Override
        public long size(int step) {
            return (long) step * blocks;
        }

        @Override
        public ShardBlock block(long maxId, int step) {
            return new ShardBlock(appId, shardId, maxId - size(step) + 1, maxId, step);
        }

        @Override
        public RuntimeException noRoomAbove(Advanced row, long mark) {
            return new AppLimitReachedException(appId, shardId, row.maxIdLimit());
        }

        @Override
        public RuntimeException failure(String detail, Throwable cause) {
            return new ShardStoreException("no block of app " + appId + " shard " + shardId + " could be reserved"
                    + detail, cause);
        }
    }

    /** The name of an (app, shard)'s high-water mark; {@code appId + ":%"} matches every shard of the app. */
    private static String markKey(int appId, int shardId) {
        return appId + ":" + shardId;
    }

    /**
     * The highest {@code max_id} this fleet has reserved in any shard of the app, kept after its rows
     * are deleted; 0 when none was.
     */
    public long highWaterOfApp(int appId) {
        return marks().highest(appId + ":%");
    }

    /** The retries of reservations the database answered "try again", for the meters. */
    public SqlRetry retries() {
        return reservation.retries();
    }

    /** The high-water marks of the (app, shard)s, for the meters. */
    public HighWaterMarks marks() {
        return reservation.marks();
    }

    /** Why the guarded UPDATE left an existing row alone. */
    private static RuntimeException refusal(IdAllocRow row) {
        if (row.step() < 1) {
            return new ShardStoreException("App " + row.appId() + " shard " + row.shardId() + " has step "
                    + row.step() + " in id_alloc; a step must be at least 1 (UPDATE id_alloc SET step = 1000 WHERE "
                    + "app_id = " + row.appId() + ")", null);
        }
        // max_id + step * blocks would pass 2^63 - 1: no index above max_id is left to reserve.
        // Far beyond any limit an ID can carry (the index has 49 bits), so the space is spent.
        return new AppLimitReachedException(row.appId(), row.shardId(), row.maxLimitId());
    }

    /**
     * The apps by app id, each from its rows: the name of its lowest shard's row, the smallest
     * step, and the strictest limit. Their services create an app's rows together with one limit,
     * so the rows agree; when an operator has edited one row, the smallest non-zero
     * {@code max_limit_id} keeps every ID below every row's limit (0, no limit, only when all say so).
     */
    @Override
    public List<ShardApp> apps() {
        List<IdAllocRow> rows;
        try (SqlSession session = sessions.openSession(true)) {
            rows = session.getMapper(IdAllocMapper.class).rows();
        } catch (PersistenceException e) {
            throw new ShardStoreException("id_alloc cannot be read: " + explain(e), e);
        }
        Map<Integer, List<IdAllocRow>> byApp = new LinkedHashMap<>();
        for (IdAllocRow row : rows) {
            byApp.computeIfAbsent(row.appId(), id -> new ArrayList<>()).add(row);
        }
        return byApp.values().stream().map(IdAllocRepository::app).toList();
    }

    private static ShardApp app(List<IdAllocRow> rows) {
        IdAllocRow first = rows.get(0);
        int step = Integer.MAX_VALUE;
        long limit = 0;
        List<Integer> shards = new ArrayList<>(rows.size());
        for (IdAllocRow row : rows) {
            step = Math.min(step, row.step());
            if (row.maxLimitId() > 0) {
                limit = limit == 0 ? row.maxLimitId() : Math.min(limit, row.maxLimitId());
            }
            shards.add(row.shardId());
        }
        return new ShardApp(first.appId(), first.appName(), step, limit, shards);
    }

    // The apps view and the admin API: plain statements with bound parameters, so a change made
    // here is exactly an operator's SQL edit and every instance picks it up the same way.

    /** Every row, by app id then shard id. */
    public List<IdAllocRow> rows() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(IdAllocMapper.class).rows());
        } catch (PersistenceException e) {
            throw tableFailure(e, "read id_alloc");
        }
    }

    /** The rows of one app, by shard id; empty when the app has none. */
    public List<IdAllocRow> rows(int appId) {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(IdAllocMapper.class).rowsOf(appId));
        } catch (PersistenceException e) {
            throw tableFailure(e, "read id_alloc");
        }
    }

    /**
     * Creates an app: 64 rows (shard 0..63) with {@code max_id} 0, in one transaction, so that an
     * app is never left with some shards only.
     *
     * @param maxLimitId every ID of the app will be below it; 0 for no limit
     * @param description may be null
     * @return the app as stored; empty when the app already has a row (any shard): nothing is inserted
     * @throws IllegalArgumentException when a value is out of range (nothing is inserted)
     */
    public Optional<ShardApp> createApp(int appId, String appName, int step, long maxLimitId, String description) {
        validate(appId, appName, step, maxLimitId, description);
        try (SqlSession session = sessions.openSession(false)) {
            IdAllocMapper mapper = session.getMapper(IdAllocMapper.class);
            for (int shard = 0; shard < SHARDS; shard++) {
                mapper.insert(appId, appName, 0, shard, step, description, maxLimitId);
            }
            List<IdAllocRow> rows = mapper.rowsOf(appId);
            session.commit();
            return Optional.of(app(rows));
        } catch (PersistenceException e) {
            // Closing the session without commit rolls back the shards inserted before the duplicate.
            if (SqlFailures.duplicateKey(e)) {
                return Optional.empty();
            }
            throw tableFailure(e, "insert app " + appId + " into id_alloc");
        }
    }

    private static void validate(int appId, String appName, int step, long maxLimitId, String description) {
        if (appId < 0 || appId > MAX_APP_ID) {
            throw new IllegalArgumentException("appId must be 0.." + MAX_APP_ID + " (8 bits of the ID): " + appId);
        }
        if (appName == null || appName.isBlank() || appName.length() > MAX_APP_NAME) {
            throw new IllegalArgumentException("appName must be 1.." + MAX_APP_NAME + " characters, not blank");
        }
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1: " + step);
        }
        if (maxLimitId < 0) {
            throw new IllegalArgumentException("maxLimitId must be 0 (no limit) or positive: " + maxLimitId);
        }
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw new IllegalArgumentException("description must be at most " + MAX_DESCRIPTION + " characters");
        }
    }

    private ShardTableException tableFailure(PersistenceException e, String action) {
        return new ShardTableException("Could not " + action + ": " + explain(e), e);
    }

    private String explain(PersistenceException e) {
        return reservation.explain(e);
    }
}
