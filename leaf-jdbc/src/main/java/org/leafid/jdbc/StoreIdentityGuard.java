package org.leafid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.concurrent.atomic.LongAdder;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's defence against a database that went back: a failover to a standby or replica that
 * had not received the last writes, or a physical restore. Such a copy holds {@code leaf_alloc} and
 * {@code id_alloc} rows below blocks that servers (some perhaps gone since) reserved and served, and
 * the {@code leaf_high_water} marks went back with them, so nothing in the database tells.
 *
 * <p>What does tell is which server answers ({@link StoreIdentity}). The identity of the server
 * this fleet writes to is recorded in {@code leaf_high_water} (row {@value #RECORD}), and every
 * reservation reads it with its block, in its own statement or transaction, and checks it before the
 * block is served ({@link #markVerified}, {@link #check}). A copy carries the identity of the server it was copied from, so the first
 * reservation after a failover finds a different one: nothing it reserved is served, and
 * {@link #adopt} moves every {@code leaf_alloc} and {@code id_alloc} row {@code skipBlocks} of its
 * steps forward and records the new identity, in one transaction that every server of the fleet
 * waits for on the row lock, so the skip happens once. The skip covers what the old server
 * reserved and the new one never received: up to {@code skipBlocks} reservations per row.
 */
public final class StoreIdentityGuard {

    /** The name of the {@code leaf_high_water} row that holds the identity's hash. */
    public static final String RECORD = "leaf:store";
    /**
     * The {@code leaf_high_water} row that holds when the identity last changed (the database's
     * clock, in milliseconds): a worker id handed out just before may be missing from the copy, and
     * its holder needs time to notice ({@code org.leafid.jdbc.worker.StoreChangeWait}).
     */
    public static final String CHANGED_AT = "leaf:store-changed-at";
    /** Reservations per row a failover may lose, unless {@code leaf.jdbc.went-back-skip-blocks} says otherwise. */
    public static final long DEFAULT_SKIP_BLOCKS = 1000;

    private static final Logger log = LoggerFactory.getLogger(StoreIdentityGuard.class);

    private final SqlSessionFactory sessions;
    private final long skipBlocks;
    private final LongAdder skips = new LongAdder();
    private final SqlRetry retry = new SqlRetry("leaf_high_water", Sleeper.system());
    /** The identity expression for this kind of database, asked once; "" for H2 (no check). */
    private volatile String expression;
    /** Whether a check passed in this process: from then on a missing record means a copy older than it. */
    private volatile boolean recordSeen;

    /**
     * @param skipBlocks how many steps every row moves forward when the identity changed: the
     *     reservations per row the new server may lack (0: none, the replication is synchronous)
     */
    public StoreIdentityGuard(SqlSessionFactory sessions, long skipBlocks) {
        if (skipBlocks < 0) {
            throw new IllegalArgumentException("skipBlocks must not be negative: " + skipBlocks);
        }
        this.sessions = sessions;
        this.skipBlocks = skipBlocks;
    }

    /**
     * The mark {@code markName} (0 when none is recorded), read in the caller's reservation
     * transaction together with the identity of the database answering, which is checked against
     * the one this fleet recorded before the block is served: one round trip for both.
     *
     * @throws Changed when the database is not the one recorded (or none is): roll back, call
     *     {@link #adopt}, reserve again
     * @throws HighWaterMarks.MissingTableException when {@code leaf_high_water} does not exist
     */
    public long markVerified(SqlSession session, String markName) {
        try {
            Connection connection = session.getConnection();
            String identity = expression(connection);
            String sql = "SELECT (SELECT high FROM leaf_high_water WHERE name = ?)"
                    + (identity.isEmpty() ? "" : ", " + identity + ", (SELECT high FROM leaf_high_water WHERE name = '"
                            + RECORD + "')");
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setString(1, markName);
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    long mark = result.getLong(1);
                    if (!identity.isEmpty()) {
                        long recorded = result.getLong(3);
                        check(result.getString(2), result.wasNull() ? null : recorded);
                    }
                    recordSeen = true;
                    return mark;
                }
            }
        } catch (SQLException e) {
            PersistenceException failure = new PersistenceException("leaf_high_water could not be read", e);
            if (SqlFailures.classify(e) == SqlFailures.Kind.MISSING_TABLE) {
                throw new HighWaterMarks.MissingTableException(failure);
            }
            throw failure;
        }
    }

    /**
     * Checks the identity a reservation read with its block against the one recorded, before the
     * block is served.
     *
     * @throws Changed when they differ, or none is recorded
     */
    public void check(String identityNow, Long recorded) {
        if (recorded == null || recorded != StoreIdentity.hash(identityNow)) {
            throw new Changed(identityNow);
        }
        recordSeen = true;
    }

    /**
     * Before a one-statement reservation, which commits its block and raises its mark before
     * {@link #check} can look: until a check passed in this process, checks first, so that the
     * first reservation on a new database records its identity before any mark exists (else the
     * mark it raised would read as a copy older than the record, and every row would be skipped).
     */
    public void checkFirstTime(SqlSession session) {
        if (!recordSeen) {
            markVerified(session, RECORD);
        }
    }

    /**
     * Records the identity of the database answering now, in a transaction of its own; when another
     * one was recorded, or none while marks exist (a copy older than the record, or an operator
     * who deleted it after a restore), first moves every row {@code skipBlocks} steps forward.
     * Another server's adoption meanwhile counts: then nothing is done.
     */
    public void adopt() {
        // Servers starting together on a new database all record it at once: InnoDB may answer one
        // of them with a deadlock (gap locks of the missing row), which is the database's "try again".
        retry.run(() -> {
            adoptOnce();
            return null;
        });
    }

    private void adoptOnce() {
        try (SqlSession session = sessions.openSession(false)) {
            Connection connection = session.getConnection();
            String identity = expression(connection);
            if (identity.isEmpty()) {
                return;
            }
            StoreIdentityMapper mapper = session.getMapper(StoreIdentityMapper.class);
            Long recorded = mapper.lockRecorded(RECORD);
            String now;
            try (Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery("SELECT " + identity)) {
                result.next();
                now = result.getString(1);
            }
            long hash = StoreIdentity.hash(now);
            if (recorded != null && recorded == hash) {
                session.commit();
                return; // another server adopted it first
            }
            if (recorded == null) {
                boolean reservedBefore = mapper.reservationMarks() > 0;
                session.getMapper(HighWaterMapper.class).insert(RECORD, hash);
                if (!reservedBefore) {
                    session.commit();
                    log.info("Recorded the identity of the database Leaf writes to ({}); a failover to a server"
                            + " with another one moves every leaf_alloc and id_alloc row {} steps forward", now,
                            skipBlocks);
                    return;
                }
            } else {
                mapper.record(RECORD, hash);
            }
            long tags = skip(connection, () -> mapper.skipLeafAlloc(skipBlocks));
            long shards = skip(connection, () -> mapper.skipIdAlloc(skipBlocks));
            long changedAt = mapper.databaseMillis();
            if (mapper.record(CHANGED_AT, changedAt) == 0) {
                session.getMapper(HighWaterMapper.class).insert(CHANGED_AT, changedAt);
            }
            session.commit();
            skips.increment();
            log.warn("The database Leaf writes to is now {}, not the one it wrote to before ({}): a failover, or"
                    + " a restore. A copy may lack the last blocks reserved, so {} leaf_alloc and {} id_alloc rows"
                    + " were moved {} steps forward (leaf.jdbc.went-back-skip-blocks) and no block is served below"
                    + " them. If the old server may have reserved more than that many blocks of a row since the"
                    + " copy last caught up, raise that row's max_id past them by hand", now,
                    recorded == null ? "none recorded: a copy older than the record, or the record deleted"
                            : "recorded as " + Long.toHexString(recorded), tags, shards, skipBlocks);
        } catch (SQLException e) {
            throw new PersistenceException("the identity of the database could not be read", e);
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw e;
            }
            // Another server recorded it at the same moment: its transaction did what this one would have.
        }
    }

    /** How many times this process moved the rows forward after the database changed. */
    public long skipCount() {
        return skips.sum();
    }

    /** The rows a skip statement moved; 0 for a table that does not exist (id_alloc without shard mode). */
    private static long skip(Connection connection, java.util.function.IntSupplier statement) throws SQLException {
        Savepoint before = connection.setSavepoint();
        try {
            return statement.getAsInt();
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) != SqlFailures.Kind.MISSING_TABLE) {
                throw e;
            }
            connection.rollback(before);
            return 0;
        }
    }

    private String expression(Connection connection) throws SQLException {
        String known = expression;
        if (known == null) {
            String asked = StoreIdentity.expression(connection);
            known = asked == null ? "" : asked;
            expression = known;
        }
        return known;
    }

    /** The database answering is not the one recorded: {@link #adopt} it, then reserve again. */
    public static final class Changed extends RuntimeException {

        public Changed(String identity) {
            super("the database answering (" + identity + ") is not the one this fleet recorded", null, false, false);
        }
    }
}
