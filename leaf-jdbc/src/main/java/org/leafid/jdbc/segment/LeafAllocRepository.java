package org.leafid.jdbc.segment;

import java.util.List;
import java.util.Optional;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.segment.SegmentTagCreator;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.jdbc.HighWaterMarks;
import org.leafid.jdbc.PoolUrls;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;
import org.leafid.jdbc.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;

/**
 * {@link SegmentStore} on {@code leaf_alloc} through MyBatis. A reservation is Leaf's
 * UPDATE-then-SELECT in one transaction: the UPDATE locks the row, so the SELECT reads the
 * {@code max_id} this transaction set and no other instance can get the same block.
 *
 * <p>A failure becomes a {@link SegmentStoreException} whose reason names the database (its url
 * without password), says whether it could not be reached or answered with an error, and what
 * to change; its cause keeps the whole JDBC chain for {@link SqlFailures#classify}.
 *
 * <p>The same table as the tags view and the admin API read and write it ({@link #rows},
 * {@link #insert}, {@link #changeStep}): one repository of {@code leaf_alloc}, one bean, so the
 * allocator and the admin API cannot see two different stores.
 */
public final class LeafAllocRepository implements SegmentStore, SegmentTagCreator {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = SqlDialect.scripts("leaf_alloc.sql");

    private final SqlSessionFactory sessions;
    private final String url;
    private final HighWaterMarks marks;
    private final SqlRetry retry;
    private final StoreIdentityGuard identity;
    /** Whether the database reserves in one statement ({@link LeafAllocOneTripMapper}). */
    private final boolean oneTrip;

    /** @param sessions Leaf's one session factory ({@code LeafSqlSessions}) */
    public LeafAllocRepository(SqlSessionFactory sessions) {
        this(sessions, Sleeper.system());
    }

    /** @param sleeper how a reservation pauses before it is tried again ({@link SqlRetry}) */
    public LeafAllocRepository(SqlSessionFactory sessions, Sleeper sleeper) {
        this(sessions, sleeper, new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS));
    }

    /** @param identity the check that the database answering is the one this fleet wrote to */
    public LeafAllocRepository(SqlSessionFactory sessions, Sleeper sleeper, StoreIdentityGuard identity) {
        this.sessions = sessions;
        this.identity = identity;
        this.url = PoolUrls.of(sessions);
        this.marks = new HighWaterMarks(sessions, "leaf_alloc");
        this.retry = new SqlRetry("leaf_alloc", sleeper);
        this.oneTrip = sessions.getConfiguration().hasMapper(LeafAllocOneTripMapper.class);
    }

    /** The database's url as messages show it (the caller strips the password), or the pool's name. */
    public String url() {
        return url;
    }

    @Override
    public AllocRow reserve(String tag, long requestedStep) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        return retry.run(() -> reserveOnDatabaseRecorded(tag, requestedStep));
    }

    /**
     * A reservation made on the database this fleet recorded: one made on another (a failover, a
     * restore) is not served; that database is adopted (its rows moved forward) and the block reserved again.
     */
    private AllocRow reserveOnDatabaseRecorded(String tag, long requestedStep) {
        for (int adoptions = 0; ; adoptions++) {
            try {
                return reserveOnce(tag, requestedStep);
            } catch (StoreIdentityGuard.Copied copied) {
                throw new SegmentStoreException(tag, "no block could be reserved: " + copied.getMessage()
                        + "; see docs/databases.md, \"A copy is not the original\"", copied);
            } catch (StoreIdentityGuard.Changed changed) {
                if (adoptions == 2) {
                    throw new SegmentStoreException(tag, "no block could be reserved: " + changed.getMessage()
                            + ", even after adopting it twice; check that leaf.jdbc.url reaches one database", changed);
                }
                try {
                    identity.adopt();
                } catch (PersistenceException e) {
                    throw new SegmentStoreException(tag, "no block could be reserved: " + changed.getMessage()
                            + ", and moving its rows forward failed: " + explain(e), e);
                }
            }
        }
    }

    private AllocRow reserveOnce(String tag, long requestedStep) {
        try {
            if (oneTrip) {
                AllocRow row = reserveInOneTrip(tag, requestedStep);
                if (row != null) {
                    return row;
                }
            }
            return reserveAboveMark(tag, requestedStep);
        } catch (HighWaterMarks.MissingTableException missing) {
            boolean created;
            try {
                created = marks.createIfNeverSeen();
            } catch (PersistenceException e) {
                throw new SegmentStoreException(tag, "no block could be reserved: leaf_high_water is missing and "
                        + "could not be created: " + SqlFailures.describe(e, url) + "; create it with "
                        + HighWaterMarks.TABLE_SCRIPT + " in the database of leaf.jdbc.url", e);
            }
            if (!created) {
                throw new SegmentStoreException(tag, "no block could be reserved: " + marks.vanished(), missing);
            }
            return reserveAboveMark(tag, requestedStep);
        }
    }

    /**
     * The common case in one statement: the block, when it starts at or above the tag's mark; null
     * for everything the transaction below must decide (a missing or exhausted tag, a row below its
     * mark). A block reserved below the mark is left unused: the transaction reserves the next one
     * and moves it past the mark.
     */
    private AllocRow reserveInOneTrip(String tag, long requestedStep) {
        LeafAllocOneTripMapper.Reserved reserved;
        try (SqlSession session = sessions.openSession(true)) {
            identity.checkFirstTime(session);
            reserved = session.getMapper(LeafAllocOneTripMapper.class).reserve(tag, requestedStep, marks.name(tag));
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) == SqlFailures.Kind.MISSING_TABLE) {
                throw new HighWaterMarks.MissingTableException(e);
            }
            throw new SegmentStoreException(tag, "no block could be reserved in leaf_alloc: " + explain(e), e);
        }
        marks.seen();
        if (reserved == null) {
            return null;
        }
        // The block is committed, but served only if the server that ran the statement is the one recorded.
        identity.check(reserved.identity(), reserved.recorded(), reserved.recordedName());
        return reserved.aboveMark() ? new AllocRow(tag, reserved.maxId(), reserved.step()) : null;
    }

    /**
     * Leaf's UPDATE and SELECT, then the high-water check, in one transaction: the block
     * {@code [max_id - size, max_id)} is served only when it starts at or above the highest
     * {@code max_id} this fleet reserved before; a row found below is moved past it first.
     */
    private AllocRow reserveAboveMark(String tag, long requestedStep) {
        try (SqlSession session = sessions.openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            int updated = mapper.advanceMaxId(tag, requestedStep);
            AllocRow row = mapper.find(tag);
            if (row == null) {
                session.commit();
                throw new UnknownTagException(tag);
            }
            if (updated == 0) {
                session.commit();
                throw new TagExhaustedException(tag, row.maxId(), Math.max(requestedStep, row.step()));
            }
            long size = Math.max(requestedStep, row.step());
            // With the identity, in this transaction: the block commits on the server checked, or not at all.
            long mark = identity.markVerified(session, marks.name(tag));
            marks.seen();
            if (row.maxId() - size < mark) {
                if (mark > Long.MAX_VALUE - size) {
                    throw new TagExhaustedException(tag, mark, size);
                }
                mapper.moveMaxIdTo(tag, mark + size);
                marks.movedBack(tag, row.maxId() - size, mark, mark + size);
                row = new AllocRow(tag, mark + size, row.step());
            }
            marks.raise(session, tag, row.maxId(), mark);
            session.commit();
            return row;
        } catch (PersistenceException e) {
            throw new SegmentStoreException(tag, "no block could be reserved in leaf_alloc: " + explain(e), e);
        }
    }

    /** The retries of reservations the database answered "try again", for the meters. */
    public SqlRetry retries() {
        return retry;
    }

    /** The check of the database's identity, for the meters. */
    public StoreIdentityGuard identity() {
        return identity;
    }

    /** The high-water marks of the tags, for the admin API's check and the meters. */
    public HighWaterMarks marks() {
        return marks;
    }

    @Override
    public List<String> tags() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(LeafAllocMapper.class).tags());
        } catch (PersistenceException e) {
            throw new SegmentStoreException(null, "leaf_alloc cannot be read: " + explain(e), e);
        }
    }

    // The tags view and the admin API: plain statements with bound parameters, so a change made
    // here is exactly an operator's SQL edit and every instance picks it up the same way.

    /** Every row, sorted by tag. */
    public List<TagRow> rows() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(LeafAllocMapper.class).rows());
        } catch (PersistenceException e) {
            throw new TagTableException("read", e);
        }
    }

    public Optional<TagRow> row(String tag) {
        try (SqlSession session = sessions.openSession(true)) {
            return Optional.ofNullable(session.getMapper(LeafAllocMapper.class).row(tag));
        } catch (PersistenceException e) {
            throw new TagTableException("read", e);
        }
    }

    /**
     * Inserts a row and returns it as stored (with the database's {@code update_time}).
     *
     * @return empty when the tag already has a row: the primary key refused the insert
     */
    public Optional<TagRow> insert(String tag, long maxId, int step, String description) {
        try (SqlSession session = sessions.openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            mapper.insert(tag, maxId, step, description);
            TagRow row = mapper.row(tag);
            session.commit();
            return Optional.of(row);
        } catch (PersistenceException e) {
            if (SqlFailures.duplicateKey(e)) {
                return Optional.empty();
            }
            throw new TagTableException("insert into", e);
        }
    }

    /**
     * The row of a tag a format makes per period: its first number 1, or above every number the
     * tag reserved before (its mark), as the admin API creates tags; nothing when it exists.
     */
    @Override
    public void createIfMissing(String tag, int step, String description) {
        if (row(tag).isEmpty()) {
            insert(tag, Math.max(1, marks.highest(tag)), step, description);
        }
    }

    /**
     * Sets a row's step and returns the row after the change.
     *
     * @return empty when the tag has no row
     */
    public Optional<TagRow> changeStep(String tag, int step) {
        try (SqlSession session = sessions.openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            // The row read back decides, not the update count: MySQL counts an unchanged row as
            // 0 unless the driver reports found rows.
            mapper.updateStep(tag, step);
            TagRow row = mapper.row(tag);
            session.commit();
            return Optional.ofNullable(row);
        } catch (PersistenceException e) {
            throw new TagTableException("update", e);
        }
    }

    private String explain(PersistenceException e) {
        return SqlFailures.describe(e, url) + SqlFailures.hint(e, TABLE_SCRIPT);
    }
}
