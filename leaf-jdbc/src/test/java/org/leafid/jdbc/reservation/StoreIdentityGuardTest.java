package org.leafid.jdbc.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.druid.pool.DruidDataSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The record of the database's identity on a real MariaDB and PostgreSQL: the same database answering
 * skips nothing; another identity recorded (what a copy of another server carries), or the record
 * deleted as docs/databases.md tells an operator to after a restore, moves every row forward once, by
 * the largest blocks a server takes. A copy under another name is refused until it is declared.
 */
class StoreIdentityGuardTest {

    private static final int STEP = 10;
    private static final long SKIP_BLOCKS = 1000;
    /** What leaf.segment.max-step allows a block by default. */
    private static final long LARGEST_BLOCK = 1_000_000;

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void theSameDatabaseAnsweringSkipsNothing(String kind) {
        TestDatabase database = database(kind);
        String tag = database.newTag("identity-same", 0, STEP);
        try (DruidDataSource pool = database.newPool()) {
            LeafAllocRepository store = store(pool);
            AllocRow first = store.reserve(tag, 1);
            AllocRow second = store.reserve(tag, 1);
            assertThat(second.maxId()).isEqualTo(first.maxId() + STEP);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void theRecordDeletedAfterARestoreMovesEveryRowForwardOnce(String kind) {
        TestDatabase database = database(kind);
        String tag = database.newTag("identity-restore", 0, STEP);
        try (DruidDataSource pool = database.newPool()) {
            LeafAllocRepository store = store(pool);
            AllocRow before = store.reserve(tag, 1);

            database.update("DELETE FROM leaf_high_water WHERE name = 'leaf:store'"); // docs/databases.md

            AllocRow after = store.reserve(tag, 1);
            assertThat(after.maxId() - STEP).as("start of the first block after the restore")
                    .isGreaterThanOrEqualTo(before.maxId() + SKIP_BLOCKS * STEP);
            AllocRow next = store.reserve(tag, 1);
            assertThat(next.maxId()).as("once only").isEqualTo(after.maxId() + STEP);
            assertThat(store.identity().skipCount()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void anotherIdentityRecordedMovesLeafAllocAndIdAllocRowsForward(String kind) {
        TestDatabase database = database(kind);
        String tag = database.newTag("identity-other", 0, STEP);
        try (DruidDataSource pool = database.newPool()) {
            LeafAllocRepository store = store(pool);
            AllocRow before = store.reserve(tag, 1);
            database.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (237, 'identity-other', 500, 0, 100, 0)");
            try {
                // What a copy carries: the identity of the server it was copied from.
                database.update("UPDATE leaf_high_water SET high = 42 WHERE name = 'leaf:store'");

                AllocRow after = store.reserve(tag, 1);
                assertThat(after.maxId() - STEP).isGreaterThanOrEqualTo(before.maxId() + SKIP_BLOCKS * STEP);
                assertThat(database.number("SELECT max_id FROM id_alloc WHERE app_id = 237 AND shard_id = 0"))
                        .as("id_alloc row moved with it").isEqualTo(500 + SKIP_BLOCKS * LARGEST_BLOCK);
                assertThat(database.number("SELECT high FROM leaf_high_water WHERE name = 'leaf:store'"))
                        .as("the identity recorded anew").isNotEqualTo(42);
            } finally {
                database.update("DELETE FROM id_alloc WHERE app_id = 237");
            }
        }
    }

    /**
     * Issue 44's third case: blocks of the dynamic step's 1,000,000 reserved on a row whose step is
     * 1,000, a restore that lost some of them, then the documented {@code DELETE} of the record: the
     * rows move past every block lost, not 1,000 of the row's steps. Every number is checked.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void theDocumentedRestoreAfterBlocksOfAMillionRepeatsNoNumber(String kind) throws Exception {
        TestDatabase database = database(kind);
        String tag = database.newTag("identity-big", 0, 1000);
        try (DruidDataSource pool = database.newPool()) {
            LeafAllocRepository store = store(pool);
            store.reserve(tag, 1);
            long dumped = database.maxId(tag);
            List<long[]> served = new ArrayList<>();
            for (int i = 0; i < 12; i++) { // the dozen reservations the restore loses
                AllocRow row = store.reserve(tag, LARGEST_BLOCK);
                served.add(new long[] {row.maxId() - LARGEST_BLOCK, row.maxId()});
            }
            database.setBackWithMark(tag, database.maxId(tag) - dumped); // the dump loaded back
            database.update("DELETE FROM leaf_high_water WHERE name = 'leaf:store'"); // docs/databases.md

            for (int i = 0; i < 12; i++) {
                AllocRow row = store.reserve(tag, LARGEST_BLOCK);
                served.add(new long[] {row.maxId() - Math.max(LARGEST_BLOCK, row.step()), row.maxId()});
            }
            served.sort(Comparator.comparingLong(block -> block[0]));
            for (int i = 1; i < served.size(); i++) {
                assertThat(served.get(i)[0]).as("block %d starts after block %d ends: no number twice", i, i - 1)
                        .isGreaterThanOrEqualTo(served.get(i - 1)[1]);
            }
        }
    }

    /**
     * Issue 44's fourth case: the database copied under another name on the same server and served
     * beside the original: the copy serves nothing (its reservations are refused, its rows stay) until
     * an operator declares it under its own name, which moves its rows forward; the original goes on.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void aCopyUnderAnotherNameIsRefusedUntilDeclared(String kind) {
        TestDatabase original = database(kind).derived("original");
        TestDatabase copy = null;
        String tag = original.newTag("identity-copy", 0, STEP);
        try (DruidDataSource originalPool = original.newPool()) {
            LeafAllocRepository originalStore = store(originalPool);
            Set<Long> issued = new HashSet<>();
            serve(originalStore.reserve(tag, 1), issued);
            copy = original.copyAs("copy");
            long copiedMaxId = copy.maxId(tag);
            try (DruidDataSource copyPool = copy.newPool()) {
                LeafAllocRepository copyStore = store(copyPool);
                for (int i = 0; i < 3; i++) {
                    serve(originalStore.reserve(tag, 1), issued);
                    assertThatThrownBy(() -> copyStore.reserve(tag, 1)).isInstanceOf(SegmentStoreException.class)
                            .hasMessageContaining("'" + copy.name() + "'").hasMessageContaining("a copy")
                            .hasCauseInstanceOf(StoreIdentityGuard.Copied.class);
                }
                assertThat(copy.maxId(tag)).as("the copy's row, untouched").isEqualTo(copiedMaxId);

                String copyName = copy.name();
                assertThatThrownBy(() -> copyStore.identity().declare(original.name()))
                        .isInstanceOf(StoreIdentityGuard.NotDeclared.class).hasMessageContaining(copyName);
                assertThat(copy.maxId(tag)).as("a declaration naming another database changes nothing")
                        .isEqualTo(copiedMaxId);

                StoreIdentityGuard.Declared declared = copyStore.identity().declare(copyName);
                assertThat(declared.tags()).isGreaterThanOrEqualTo(1);
                assertThat(copy.maxId(tag)).isEqualTo(copiedMaxId + SKIP_BLOCKS * LARGEST_BLOCK);
                serve(copyStore.reserve(tag, 1), issued);
                serve(originalStore.reserve(tag, 1), issued);
                assertThat(issued).as("numbers issued by the original and by the copy once declared").hasSize(6 * STEP);
            }
        } finally {
            if (copy != null) {
                copy.drop();
            }
            original.drop();
        }
    }

    /** Every number of the block, each added once: a repeat fails here. */
    private static void serve(AllocRow row, Set<Long> issued) {
        for (long id = row.maxId() - STEP; id < row.maxId(); id++) {
            assertThat(issued.add(id)).as("number %d issued twice", id).isTrue();
        }
    }

    private static LeafAllocRepository store(DruidDataSource pool) {
        SqlSessionFactory sessions = LeafSqlSessions.create(pool);
        return new LeafAllocRepository(sessions, Sleeper.system(),
                new StoreIdentityGuard(sessions, SKIP_BLOCKS, LARGEST_BLOCK, FleetWitnessedTables.NONE));
    }

    /**
     * With a fleet-wide witness the tags are left where they are (each is carried to the witness's exact
     * mark at its next reservation, in the allocator); id_alloc rows move unless shard mode claims its
     * blocks in the witness too.
     */
    @ParameterizedTest
    @CsvSource({"mariadb, false", "postgresql, false", "mariadb, true", "postgresql, true"})
    void withAFleetWitnessItsTablesRowsStay(String kind, boolean shardsWitnessed) {
        TestDatabase database = database(kind);
        String tag = database.newTag("identity-witnessed", 0, STEP);
        try (DruidDataSource pool = database.newPool()) {
            SqlSessionFactory sessions = LeafSqlSessions.create(pool);
            LeafAllocRepository store = new LeafAllocRepository(sessions, Sleeper.system(),
                    new StoreIdentityGuard(sessions, SKIP_BLOCKS, LARGEST_BLOCK,
                            new FleetWitnessedTables(true, shardsWitnessed)));
            AllocRow before = store.reserve(tag, 1);
            database.update("INSERT INTO id_alloc(app_id, app_name, max_id, shard_id, step, max_limit_id) "
                    + "VALUES (238, 'identity-witnessed', 500, 0, 100, 0)");
            try {
                database.update("UPDATE leaf_high_water SET high = 42 WHERE name = 'leaf:store'");
                AllocRow after = store.reserve(tag, 1);
                // PostgreSQL's one-statement reservation committed the block it then refused: one step more.
                assertThat(after.maxId()).as("the tag, left to the witness")
                        .isBetween(before.maxId() + STEP, before.maxId() + 2 * STEP);
                assertThat(database.number("SELECT max_id FROM id_alloc WHERE app_id = 238 AND shard_id = 0"))
                        .isEqualTo(shardsWitnessed ? 500 : 500 + SKIP_BLOCKS * LARGEST_BLOCK);
            } finally {
                database.update("DELETE FROM id_alloc WHERE app_id = 238");
            }
        }
    }

    private static TestDatabase database(String kind) {
        return kind.equals("postgresql") ? TestDatabase.postgres() : TestDatabase.get();
    }
}
