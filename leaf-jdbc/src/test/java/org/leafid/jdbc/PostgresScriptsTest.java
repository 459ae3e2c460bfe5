package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The scripts of {@code sql/postgresql/}: they run again on a database that has the tables (a deploy runs
 * them every time), and {@code update_time} moves on every update that does not set it, hand edits
 * included, as MySQL's {@code ON UPDATE CURRENT_TIMESTAMP} makes it.
 */
class PostgresScriptsTest {

    private final TestDatabase database = TestDatabase.postgres();

    @Test
    void theScriptsRunAgainAndUpdateTimeFollowsEveryUpdate() {
        database.createTables(); // the second time in this JVM: every script again, on existing tables
        String tag = database.newTag("update-time", 1, 10);
        Instant past = Instant.parse("2001-01-01T00:00:00Z");
        database.update("UPDATE leaf_alloc SET update_time = ? WHERE biz_tag = ?", Timestamp.from(past), tag);
        assertThat(epochSecond(tag)).as("an UPDATE that sets update_time keeps it, as on MySQL")
                .isEqualTo(past.getEpochSecond());

        database.update("UPDATE leaf_alloc SET step = 20 WHERE biz_tag = ?", tag); // an operator's edit

        assertThat(epochSecond(tag)).as("any other UPDATE moves it to now")
                .isGreaterThan(Instant.now().minusSeconds(3600).getEpochSecond());
        database.deleteTag(tag);
    }

    private long epochSecond(String tag) {
        return database.number("SELECT EXTRACT(EPOCH FROM update_time)::bigint FROM leaf_alloc WHERE biz_tag = ?", tag);
    }
}
