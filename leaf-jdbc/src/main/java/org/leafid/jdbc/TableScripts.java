package org.leafid.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.jdbc.ScriptRunner;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;

/**
 * The one definition of each of Leaf's tables per SQL dialect: the scripts of the repository's
 * {@code sql/} (MySQL's words, which MariaDB, TiDB and the embedded H2 in its MySQL mode read alike)
 * and {@code sql/postgresql/}, packed into this jar under {@value #ROOT}. Whatever creates a table
 * (the embedded database, a missing {@code leaf_high_water} or {@code leaf_shard_key}, the tests)
 * runs the script an operator runs, so the table is the same wherever it comes from.
 */
public final class TableScripts {

    /** Where the build puts {@code sql/} on the class path. */
    static final String ROOT = "/leaf-sql/";

    private TableScripts() {}

    /** The text of {@code file} (e.g. {@code leaf_alloc.sql}) in {@code dialect}'s words. */
    public static String text(SqlDialect dialect, String file) {
        String resource = ROOT + (dialect == SqlDialect.POSTGRESQL ? "postgresql/" : "") + file;
        try (InputStream in = TableScripts.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from leaf-jdbc's jar (a build without sql/)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + resource, e);
        }
    }

    /**
     * Runs {@code read}; when the table it reads is missing, runs {@code file} (creating it, as an
     * operator would), then {@code created} (the caller's log line), and runs {@code read} again.
     *
     * @throws PersistenceException as the database refused the read or the script
     */
    public static <T> T readCreatingWhenMissing(SqlSessionFactory sessions, String file, Supplier<T> read,
            Runnable created) {
        try {
            return read.get();
        } catch (PersistenceException e) {
            if (SqlFailures.classify(e) != SqlFailures.Kind.MISSING_TABLE) {
                throw e;
            }
        }
        run(sessions, file);
        created.run();
        return read.get();
    }

    /**
     * Runs {@code file} in a session of its own on {@code sessions}, in the dialect they were made for.
     *
     * @throws PersistenceException as the database refused a statement, the way a mapper's failure
     *     reaches the caller ({@link SqlFailures} reads it)
     */
    public static void run(SqlSessionFactory sessions, String file) {
        SqlDialect dialect = SqlDialect.ofDatabaseId(sessions.getConfiguration().getDatabaseId());
        try (SqlSession session = sessions.openSession(true)) {
            run(session.getConnection(), dialect, file);
        } catch (SQLException e) {
            throw new PersistenceException("could not run " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code file} on {@code connection}, committing each statement. PostgreSQL's scripts go in
     * whole (their trigger functions hold {@code ;} inside dollar quotes, which its driver reads
     * right); MySQL's statement by statement, as its driver takes one at a time.
     *
     * @throws SQLException as the database refused a statement
     */
    public static void run(Connection connection, SqlDialect dialect, String file) throws SQLException {
        String script = text(dialect, file);
        if (dialect == SqlDialect.POSTGRESQL) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                statement.execute(script);
            } finally {
                connection.setAutoCommit(autoCommit);
            }
            return;
        }
        runStatements(connection, script);
    }

    /**
     * Runs {@code script} (MySQL's words) statement by statement, committing each: a script of
     * {@code sql/}, or the embedded database's sample rows.
     *
     * @throws SQLException as the database refused a statement
     */
    static void runStatements(Connection connection, String script) throws SQLException {
        ScriptRunner runner = new ScriptRunner(connection);
        runner.setLogWriter(null);
        runner.setErrorLogWriter(null);
        runner.setStopOnError(true);
        runner.setSendFullScript(false);
        runner.setAutoCommit(true);
        try {
            runner.runScript(new StringReader(script));
        } catch (RuntimeException e) {
            // ScriptRunner wraps the database's refusal; hand the SQLException on as itself.
            if (e.getCause() instanceof SQLException refusal) {
                throw refusal;
            }
            throw e;
        }
    }
}
