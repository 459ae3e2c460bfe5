package org.leafid.jdbc.reservation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.StepPolicy;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;
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
 * {@link #adopt} moves every {@code leaf_alloc} and {@code id_alloc} row {@code skipBlocks} of the
 * largest blocks a server may take forward and records the new identity, in one transaction that
 * every server of the fleet waits for on the row lock, so the skip happens once. The skip covers what
 * the old server reserved and the new one never received: up to {@code skipBlocks} reservations per row.
 *
 * <p>The name of the database is recorded too (row {@value #DATABASE}). A failover keeps it; a copy
 * loaded under another name (a staging restore, a clone) does not, and may be served beside the
 * original, which goes on: no skip can cover that. So a database under another name is never
 * adopted: every reservation on it is refused ({@link Copied}) until an operator declares it
 * ({@link #declare}).
 */
public final class StoreIdentityGuard {

    /** The name of the {@code leaf_high_water} row that holds the identity's hash. */
    public static final String RECORD = "leaf:store";
    /** The name of the {@code leaf_high_water} row that holds the hash of the database's own name. */
    public static final String DATABASE = "leaf:database";
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
    private final long largestBlock;
    private final FleetWitnessedTables witnessed;
    private final AtomicBoolean copyReported = new AtomicBoolean();
    private final LongAdder skips = new LongAdder();
    private final SqlRetry retry = new SqlRetry("leaf_high_water", Sleeper.system());
    /** The identity expression for this kind of database, asked once; "" for H2 (no check). */
    private volatile String expression;
    /** Whether a check passed in this process: from then on a missing record means a copy older than it. */
    private volatile boolean recordSeen;

    /** With blocks of at most {@code StepPolicy.DEFAULT_MAX_STEP} numbers. */
    public StoreIdentityGuard(SqlSessionFactory sessions, long skipBlocks) {
        this(sessions, skipBlocks, StepPolicy.DEFAULT_MAX_STEP, FleetWitnessedTables.NONE);
    }

    /**
     * @param skipBlocks how many blocks every row moves forward when the identity changed: the
     *     reservations per row the new server may lack (0: none, the replication is synchronous)
     * @param largestBlock the most numbers a server reserves in one block of a row whose step is
     *     smaller ({@code leaf.segment.max-step}: the dynamic step grows up to it); a row moves
     *     {@code skipBlocks} times this or its own step, whichever is larger
     * @param witnessed the tables whose blocks every server claims in a fleet-wide witness first
     *     ({@code leaf.witness.fleet}): a change leaves their rows where they are, each carried to the
     *     witness's exact mark at its next reservation, so that no narrow format is exhausted by the skip
     */
    public StoreIdentityGuard(SqlSessionFactory sessions, long skipBlocks, long largestBlock,
            FleetWitnessedTables witnessed) {
        if (skipBlocks < 0) {
            throw new IllegalArgumentException("skipBlocks must not be negative: " + skipBlocks);
        }
        if (largestBlock < 1) {
            throw new IllegalArgumentException("largestBlock must be at least 1: " + largestBlock);
        }
        this.sessions = sessions;
        this.skipBlocks = skipBlocks;
        this.largestBlock = largestBlock;
        this.witnessed = witnessed;
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
                            + RECORD + "'), (SELECT high FROM leaf_high_water WHERE name = '" + DATABASE + "')");
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setString(1, markName);
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    long mark = result.getLong(1);
                    if (!identity.isEmpty()) {
                        long recorded = result.getLong(3);
                        Long store = result.wasNull() ? null : recorded;
                        long recordedName = result.getLong(4);
                        Long name = result.wasNull() ? null : recordedName;
                        check(result.getString(2), store, name);
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
     * @param recorded the hash of the server's identity recorded ({@value #RECORD}), null when none is
     * @param recordedName the hash of the database's name recorded ({@value #DATABASE}), null when none is
     * @throws Copied when the database's name is not the one recorded: never adopted
     * @throws Changed when the server differs, or nothing is recorded
     */
    public void check(String identityNow, Long recorded, Long recordedName) {
        StoreIdentity.Name now = StoreIdentity.Name.parse(identityNow);
        if (recordedName != null && recordedName != StoreIdentity.hash(now.database())) {
            throw copied(now);
        }
        if (recorded == null || recordedName == null || recorded != StoreIdentity.hash(now.server())) {
            throw new Changed(now.toString());
        }
        recordSeen = true;
    }

    private Copied copied(StoreIdentity.Name now) {
        Copied copied = new Copied(now);
        if (copyReported.compareAndSet(false, true)) {
            log.warn("{}. Nothing is served from it. If it is a copy (a staging restore, a clone), point leaf.jdbc.url"
                    + " back at the original; if it is to be used, declare it: POST /api/admin/store/declare"
                    + " (docs/databases.md, \"A copy is not the original\")", copied.getMessage());
        }
        return copied;
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
            Long recordedName = mapper.recorded(DATABASE);
            StoreIdentity.Name now = StoreIdentity.Name.parse(answer(connection, identity));
            if (recordedName != null && recordedName != StoreIdentity.hash(now.database())) {
                session.rollback();
                throw copied(now);
            }
            if (recordedName == null) {
                // A database an earlier release recorded (without its name), or none recorded yet.
                put(session, DATABASE, StoreIdentity.hash(now.database()));
            }
            long hash = StoreIdentity.hash(now.server());
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
                            + " with another one moves every leaf_alloc and id_alloc row {} blocks forward", now,
                            skipBlocks);
                    return;
                }
            } else {
                mapper.record(RECORD, hash);
            }
            Moved moved = moveForward(connection, session, witnessed);
            session.commit();
            skips.increment();
            log.warn("The database Leaf writes to is now {}, not the one it wrote to before ({}): a failover, or"
                    + " a restore. A copy may lack the last blocks reserved, so {} leaf_alloc and {} id_alloc rows"
                    + " were moved {} blocks of up to {} numbers forward (leaf.jdbc.went-back-skip-blocks,"
                    + " leaf.segment.max-step) and no block is served below them{}. If the old server may have"
                    + " reserved more than that since the copy last caught up, raise the rows' max_id past it by hand",
                    now, recorded == null ? "none recorded: a copy older than the record, or the record deleted"
                            : "recorded as " + Long.toHexString(recorded), moved.tags(), moved.shards(), skipBlocks,
                    largestBlock, witnessedNote());
        } catch (SQLException e) {
            throw new PersistenceException("the identity of the database could not be read", e);
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw e;
            }
            // Another server recorded it at the same moment: its transaction did what this one would have.
        }
    }

    /**
     * An operator's word that the database answering is this fleet's store from now on, although its
     * name is not the one recorded: a copy that is to be a store of its own, or the original restored
     * under another name. Records its identity and name and moves every row forward as a failover
     * does, so that nothing the rows' copy may lack is served again.
     *
     * @param database the name the operator expects the database answering to have: another one
     *     (the url reaches another database than thought) changes nothing
     * @return what was recorded and moved
     * @throws NotDeclared when the database answering has another name, or is the embedded one
     */
    public Declared declare(String database) {
        return retry.run(() -> declareOnce(database));
    }

    private Declared declareOnce(String database) {
        try (SqlSession session = sessions.openSession(false)) {
            Connection connection = session.getConnection();
            String identity = expression(connection);
            if (identity.isEmpty()) {
                throw new NotDeclared("the embedded database is never copied under another name: nothing to declare");
            }
            StoreIdentityMapper mapper = session.getMapper(StoreIdentityMapper.class);
            mapper.lockRecorded(RECORD);
            StoreIdentity.Name now = StoreIdentity.Name.parse(answer(connection, identity));
            if (!now.database().equals(database)) {
                session.rollback();
                throw new NotDeclared("the database answering is " + now + ", not '" + database + "'");
            }
            put(session, RECORD, StoreIdentity.hash(now.server()));
            put(session, DATABASE, StoreIdentity.hash(now.database()));
            Moved moved = moveForward(connection, session, FleetWitnessedTables.NONE);
            session.commit();
            skips.increment();
            copyReported.set(false);
            log.warn("Declared by an operator: {} is this fleet's store from now on; {} leaf_alloc and {} id_alloc rows"
                    + " were moved {} blocks of up to {} numbers forward", now, moved.tags(), moved.shards(),
                    skipBlocks, largestBlock);
            return new Declared(now.toString(), moved.tags(), moved.shards(), skipBlocks * largestBlock);
        } catch (SQLException e) {
            throw new PersistenceException("the identity of the database could not be read", e);
        }
    }

    /** {@link #declare} changed nothing: the database answering is not the one named. */
    public static final class NotDeclared extends RuntimeException {

        NotDeclared(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What {@link #declare} recorded and moved: the database, the rows, and the least distance each moved. */
    public record Declared(String database, long tags, long shards, long movedAtLeast) {}

    private record Moved(long tags, long shards) {}

    /**
     * Moves every row forward by the skip, but for the tables left to the fleet's witness, and records
     * when the database changed: one transaction's part.
     *
     * @param leftToWitness the tables whose rows stay, for the fleet's witness to carry them
     */
    private Moved moveForward(Connection connection, SqlSession session, FleetWitnessedTables leftToWitness)
            throws SQLException {
        StoreIdentityMapper mapper = session.getMapper(StoreIdentityMapper.class);
        long tags = leftToWitness.leafAlloc() ? 0
                : skip(connection, () -> mapper.skipLeafAlloc(skipBlocks, largestBlock));
        long shards = leftToWitness.idAlloc() ? 0
                : skip(connection, () -> mapper.skipIdAlloc(skipBlocks, largestBlock));
        put(session, CHANGED_AT, mapper.databaseMillis());
        return new Moved(tags, shards);
    }

    private String witnessedNote() {
        if (!witnessed.leafAlloc() && !witnessed.idAlloc()) {
            return "";
        }
        String tables = witnessed.leafAlloc() && witnessed.idAlloc() ? "leaf_alloc and id_alloc"
                : witnessed.leafAlloc() ? "leaf_alloc" : "id_alloc";
        return "; " + tables + " rows go to the fleet witness's mark at their next reservation instead"
                + " (leaf.witness.fleet)";
    }

    private static void put(SqlSession session, String name, long value) {
        if (session.getMapper(StoreIdentityMapper.class).record(name, value) == 0) {
            session.getMapper(HighWaterMapper.class).insert(name, value);
        }
    }

    private static String answer(Connection connection, String identity) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT " + identity)) {
            result.next();
            return result.getString(1);
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

    /**
     * The database answering has another name than the one recorded: a copy, which may be served
     * beside the original. Not adopted; nothing is reserved on it until an operator {@link #declare}s it.
     */
    public static final class Copied extends RuntimeException {

        Copied(StoreIdentity.Name now) {
            // The database's name only: the server's part (its host name) is not for anonymous callers.
            super("the database answering ('" + now.database() + "') is not the one this fleet recorded: its name"
                    + " differs,"
                    + " so it is a copy (a restore or clone under another name), not a failover", null, false, false);
        }
    }

    /** The database answering is not the one recorded: {@link #adopt} it, then reserve again. */
    public static final class Changed extends RuntimeException {

        public Changed(String identity) {
            super("the database answering (" + identity + ") is not the one this fleet recorded", null, false, false);
        }
    }
}
