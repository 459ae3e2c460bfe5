package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.leafid.testing.jdbc.TestDatabase;

/** {@link SqlFailures} on PostgreSQL's own answers, from a real server: each failure as the driver reports it. */
class SqlFailuresPostgresTest {

    private final TestDatabase database = TestDatabase.postgres();

    @Test
    void aMissingTableIsAMisconfigurationNamingTheScript() throws Exception {
        Throwable failure;
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            failure = catchThrowable(() -> statement.executeQuery("SELECT 1 FROM no_such_leaf_table"));
        }
        assertThat(SqlFailures.classify(failure)).isEqualTo(SqlFailures.Kind.MISSING_TABLE);
        assertThat(SqlFailures.hint(failure, "sql/postgresql/leaf_alloc.sql")).contains("sql/postgresql/leaf_alloc.sql");
    }

    /** What pg_terminate_backend (an operator, a failover, a restart) does to a session in use: waiting heals it. */
    @Test
    void aTerminatedSessionIsUnreachable() throws Exception {
        try (Connection victim = database.connect(); Connection operator = database.connect()) {
            long pid;
            try (Statement statement = victim.createStatement();
                    ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
                row.next();
                pid = row.getLong(1);
            }
            try (PreparedStatement kill = operator.prepareStatement("SELECT pg_terminate_backend(?)")) {
                kill.setInt(1, (int) pid);
                kill.execute();
            }
            Throwable failure = catchThrowable(() -> {
                try (Statement statement = victim.createStatement()) {
                    statement.executeQuery("SELECT 1");
                }
            });
            assertThat(failure).isNotNull();
            assertThat(SqlFailures.classify(failure)).isEqualTo(SqlFailures.Kind.UNREACHABLE);
        }
    }

    /**
     * PostgreSQL's driver takes {@code user:secret@host} for a host name and quotes it in its error:
     * the description (what logs, problems and health show) masks the secret.
     */
    @Test
    void aPasswordInTheUrlsUserInfoIsMaskedInTheDriversError() {
        String url = "jdbc:postgresql://leaf:Hunter2secret@127.0.0.1:5432/" + database.name() + "?connectTimeout=2";
        Throwable failure = catchThrowable(() -> DriverManager.getConnection(url, database.user(), database.password()));
        assertThat(failure).isNotNull();
        assertThat(String.valueOf(SqlFailures.rootCause(failure).getMessage())).contains("Hunter2secret");

        String described = SqlFailures.describe(failure, url);
        assertThat(described).doesNotContain("Hunter2secret").contains("***");
    }

    @Test
    void anUnknownDatabaseAndADuplicateKeyAreReadAsSuch() throws Exception {
        String missing = database.url().replace("/" + database.name(), "/leaf_no_such_database");
        Throwable unknown = catchThrowable(() -> DriverManager.getConnection(missing, database.user(), database.password()));
        assertThat(SqlFailures.classify(unknown)).isEqualTo(SqlFailures.Kind.UNKNOWN_DATABASE);

        String tag = database.newTag("dup", 1, 10);
        Throwable duplicate = catchThrowable(() -> database.insertTag(tag, 1, 10));
        assertThat(SqlFailures.duplicateKey(duplicate)).isTrue();
        database.deleteTag(tag);
    }
}
