package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.AllocRow;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The record of the database's identity on a real MariaDB and PostgreSQL: the same database answering
 * skips nothing; another identity recorded (what a copy of another server carries), or the record
 * deleted as docs/databases.md tells an operator to after a restore, moves every row forward once.
 */
class StoreIdentityGuardTest {

    private static final int STEP = 10;
    private static final long SKIP_BLOCKS = 1000;

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
                        .as("id_alloc row moved with it").isEqualTo(500 + SKIP_BLOCKS * 100);
                assertThat(database.number("SELECT high FROM leaf_high_water WHERE name = 'leaf:store'"))
                        .as("the identity recorded anew").isNotEqualTo(42);
            } finally {
                database.update("DELETE FROM id_alloc WHERE app_id = 237");
            }
        }
    }

    private static LeafAllocRepository store(DruidDataSource pool) {
        SqlSessionFactory sessions = LeafSqlSessions.create(pool);
        return new LeafAllocRepository(sessions, Sleeper.system(), new StoreIdentityGuard(sessions, SKIP_BLOCKS));
    }

    private static TestDatabase database(String kind) {
        return kind.equals("postgresql") ? TestDatabase.postgres() : TestDatabase.get();
    }
}
