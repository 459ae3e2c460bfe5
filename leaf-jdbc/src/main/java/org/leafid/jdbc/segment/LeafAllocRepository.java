package org.leafid.jdbc.segment;

import java.util.List;
import java.util.Optional;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.jdbc.reservation.HighWaterMarks;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;
import org.leafid.jdbc.reservation.GuardedReservation;
import org.leafid.jdbc.reservation.OneTripReservation;
import org.leafid.jdbc.reservation.ReservationSteps;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;

/**
 * {@link SegmentStore} on {@code leaf_alloc} through MyBatis. A reservation is Leaf's
 * UPDATE-then-SELECT in one transaction: the UPDATE locks the row, so the SELECT reads the
 * {@code max_id} this transaction set and no other instance can get the same block. Retries, the
 * store's identity and the high-water check are {@link GuardedReservation}'s, as for {@code id_alloc}.
 *
 * <p>A failure becomes a {@link SegmentStoreException} whose reason names the database (its url
 * without password), says whether it could not be reached or answered with an error, and what
 * to change; its cause keeps the whole JDBC chain for {@link SqlFailures#classify}.
 *
 * <p>The same table as the tags view and the admin API read and write it ({@link #rows},
 * {@link #insert}, {@link #changeStep}): one repository of {@code leaf_alloc}, one bean, so the
 * allocator and the admin API cannot see two different stores.
 */
public final class LeafAllocRepository implements SegmentStore, LeafAllocTable {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = SqlDialect.scripts("leaf_alloc.sql");

    private final SqlSessionFactory sessions;
    private final GuardedReservation reservation;

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
        this.reservation = new GuardedReservation(sessions, "leaf_alloc", TABLE_SCRIPT, LeafAllocOneTripMapper.class,
                sleeper, identity);
    }

    /** The database's url as messages show it (the caller strips the password), or the pool's name. */
    public String url() {
        return reservation.url();
    }

    @Override
    public AllocRow reserve(String tag, long requestedStep) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        return reservation.reserve(new LeafAllocSteps(tag, requestedStep));
    }

    /**
     * A block of a row reserved another way than Leaf's (one of several stores: inside its own
     * stripes), through the same pipeline: retries, the store's identity, the high-water mark.
     */
    public AllocRow reserve(ReservationSteps<AllocRow> steps) {
        return reservation.reserve(steps);
    }

    /** The retries of reservations the database answered "try again", for the meters. */
    public SqlRetry retries() {
        return reservation.retries();
    }

    /** The check of the database's identity, for the meters. */
    public StoreIdentityGuard identity() {
        return reservation.identity();
    }

    /** The high-water marks of the tags, for the admin API's check and the meters. */
    public HighWaterMarks marks() {
        return reservation.marks();
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

    @Override
    public List<TagRow> rows() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(LeafAllocMapper.class).rows());
        } catch (PersistenceException e) {
            throw new TagTableException("read", e);
        }
    }

    @Override
    public Optional<TagRow> row(String tag) {
        try (SqlSession session = sessions.openSession(true)) {
            return Optional.ofNullable(session.getMapper(LeafAllocMapper.class).row(tag));
        } catch (PersistenceException e) {
            throw new TagTableException("read", e);
        }
    }

    /** Inserts a row and returns it as stored (with the database's {@code update_time}). */
    @Override
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
            insert(tag, Math.max(1, highestMark(tag)), step, description);
        }
    }

    @Override
    public long highestMark(String tag) {
        return marks().highest(tag);
    }

    @Override
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
        return reservation.explain(e);
    }
}
