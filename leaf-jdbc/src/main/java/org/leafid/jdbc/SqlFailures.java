package org.leafid.jdbc;

import com.alibaba.druid.pool.DataSourceNotAvailableException;
import com.alibaba.druid.pool.GetConnectionTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;
import java.util.Optional;

/**
 * The one reading of JDBC failures: the root cause, whether the database could not be reached
 * (waiting may heal it) or answered that the configuration is wrong (waiting will not), and what
 * the operator should change. MySQL/MariaDB error codes and SQL states, and H2's and PostgreSQL's
 * where they differ.
 */
public final class SqlFailures {

    private static final int ER_DBACCESS_DENIED = 1044;
    private static final int ER_ACCESS_DENIED = 1045;
    private static final int ER_BAD_DB = 1049;
    private static final int ER_DUP_ENTRY = 1062;
    private static final int ER_NO_SUCH_TABLE = 1146;
    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static final int ER_LOCK_DEADLOCK = 1213;
    private static final int ER_TABLE_DEF_CHANGED = 1412;
    /** SQL's serialization_failure: PostgreSQL's "could not serialize access", MySQL's and H2's deadlock. */
    private static final String SERIALIZATION_FAILURE = "40001";
    /** PostgreSQL's deadlock_detected. */
    private static final String PG_DEADLOCK = "40P01";
    private static final int H2_TABLE_NOT_FOUND = 42102;
    private static final int H2_TABLE_NOT_FOUND_DATABASE_EMPTY = 42104;
    /** PostgreSQL's undefined_table. */
    private static final String PG_UNDEFINED_TABLE = "42P01";
    /**
     * PostgreSQL's operator intervention class: the server ended the session (admin_shutdown, e.g.
     * {@code pg_terminate_backend}; crash_shutdown; cannot_connect_now while it starts). Reconnecting heals it.
     */
    private static final String PG_OPERATOR_INTERVENTION = "57P";

    /** How a failure is to be read. */
    public enum Kind {
        /** No answer: connection refused, timed out, unknown host, connection lost. Waiting may heal it. */
        UNREACHABLE,
        /** The database refused the user or password (MySQL 1045/1044, SQL state 28). */
        ACCESS_DENIED,
        /** The database named in the url does not exist (MySQL 1049). */
        UNKNOWN_DATABASE,
        /** The table does not exist (MySQL 1146, SQL state 42S02; PostgreSQL 42P01). */
        MISSING_TABLE,
        /** Any other failure. */
        OTHER;

        /** An answer that says the configuration is wrong: it will not heal by waiting. */
        public boolean misconfiguration() {
            return this == ACCESS_DENIED || this == UNKNOWN_DATABASE || this == MISSING_TABLE;
        }
    }

    /** An answer that says: the transaction was rolled back, run it again. */
    public enum TryAgain {
        /** MySQL/MariaDB 1213, PostgreSQL 40P01. */
        DEADLOCK("a deadlock"),
        /** MySQL/MariaDB 1205: another transaction held the row longer than innodb_lock_wait_timeout. */
        LOCK_WAIT_TIMEOUT("a lock wait timeout"),
        /** MySQL/MariaDB 1412: a table was created or changed after the transaction's snapshot. */
        TABLE_DEFINITION_CHANGED("\"table definition has changed\""),
        /** SQL state 40001 otherwise: PostgreSQL under REPEATABLE READ or SERIALIZABLE. */
        SERIALIZATION_FAILURE("a serialization failure");

        private final String words;

        TryAgain(String words) {
            this.words = words;
        }

        /** The kind in words, for the log. */
        public String words() {
            return words;
        }

        /** The kind as the meter's tag value. */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private SqlFailures() {}

    /**
     * Whether the database answered "try again": the transaction was rolled back (or, for a lock wait
     * timeout, its statement; the caller's session is closed without commit) and running it again
     * may succeed. Reads the whole cause chain.
     */
    public static Optional<TryAgain> tryAgain(Throwable failure) {
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof SQLException sql) {
                int code = sql.getErrorCode();
                String state = sql.getSQLState() == null ? "" : sql.getSQLState();
                if (code == ER_LOCK_DEADLOCK || state.equals(PG_DEADLOCK)) {
                    return Optional.of(TryAgain.DEADLOCK);
                }
                if (code == ER_LOCK_WAIT_TIMEOUT) {
                    return Optional.of(TryAgain.LOCK_WAIT_TIMEOUT);
                }
                if (code == ER_TABLE_DEF_CHANGED) {
                    return Optional.of(TryAgain.TABLE_DEFINITION_CHANGED);
                }
                if (state.equals(SERIALIZATION_FAILURE)) {
                    return Optional.of(TryAgain.SERIALIZATION_FAILURE);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Reads the whole cause chain. An answer from the database wins over the connection failure
     * that wraps it: the pool reports bad credentials as a failed wait for a connection.
     */
    public static Kind classify(Throwable failure) {
        boolean connection = false;
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState() == null ? "" : sql.getSQLState();
                int code = sql.getErrorCode();
                if (code == ER_ACCESS_DENIED || code == ER_DBACCESS_DENIED || state.startsWith("28")) {
                    return Kind.ACCESS_DENIED;
                }
                if (code == ER_BAD_DB || state.startsWith("3D")) {
                    return Kind.UNKNOWN_DATABASE;
                }
                if (code == ER_NO_SUCH_TABLE || code == H2_TABLE_NOT_FOUND || code == H2_TABLE_NOT_FOUND_DATABASE_EMPTY
                        || state.equals("42S02") || state.equals(PG_UNDEFINED_TABLE)) {
                    return Kind.MISSING_TABLE;
                }
                if (state.startsWith("42")) {
                    return Kind.OTHER;
                }
                connection |= state.startsWith("08") || state.startsWith(PG_OPERATOR_INTERVENTION)
                        || sql instanceof SQLTransientConnectionException
                        || sql instanceof SQLNonTransientConnectionException || sql instanceof SQLRecoverableException
                        || sql instanceof SQLTimeoutException || sql instanceof GetConnectionTimeoutException
                        || sql instanceof DataSourceNotAvailableException;
            }
            connection |= t instanceof IOException;
        }
        return connection ? Kind.UNREACHABLE : Kind.OTHER;
    }

    /** Whether the database could not be reached, rather than answered with an error. */
    public static boolean unreachable(Throwable failure) {
        return classify(failure) == Kind.UNREACHABLE;
    }

    /**
     * A primary- or unique-key violation: MySQL and MariaDB say error 1062 (their SQL state 23000
     * alone also covers NOT NULL and foreign keys), H2 and the SQL standard say 23505.
     */
    public static boolean duplicateKey(Throwable failure) {
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof SQLException sql
                    && ("23505".equals(sql.getSQLState()) || sql.getErrorCode() == ER_DUP_ENTRY)) {
                return true;
            }
        }
        return false;
    }

    /** The innermost cause, which says what went wrong; the wrappers say only where. */
    public static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (next(cause) != null) {
            cause = next(cause);
        }
        return cause;
    }

    /**
     * What the operator should change, starting with {@code "; "}, or {@code ""} when the failure
     * names nothing to change.
     *
     * @param tableScript the script creating the table concerned, e.g. {@code sql/leaf_alloc.sql}
     */
    public static String hint(Throwable failure, String tableScript) {
        return hint(failure, tableScript, "leaf.jdbc");
    }

    /**
     * As {@link #hint(Throwable, String)}, for the database set under {@code key}: {@code leaf.jdbc}, or
     * {@code leaf.jdbc.stores[k]} for a store of several.
     */
    public static String hint(Throwable failure, String tableScript, String key) {
        return switch (classify(failure)) {
            case ACCESS_DENIED -> "; check " + key + ".username and " + key + ".password (and that the user may "
                    + "use the database of " + key + ".url)";
            case UNKNOWN_DATABASE -> "; check the database name in " + key + ".url, or create that database";
            case MISSING_TABLE -> "; create the table with " + tableScript + " in the database of " + key + ".url";
            case UNREACHABLE -> "; check " + key + ".url, the network and that the database server runs";
            case OTHER -> "";
        };
    }

    /**
     * The failure in one line, naming the database by {@code url} (without its password):
     * {@code jdbc:mysql://127.0.0.1:1/leaf refused the connection (Connection refused)}.
     */
    public static String describe(Throwable failure, String url) {
        String shown = JdbcUrls.withoutPassword(url);
        if (JdbcUrls.malformed(url)) {
            // The driver's own message quotes the url where it stopped reading it: a password, perhaps.
            return shown + " failed: the JDBC driver cannot read the url; check leaf.jdbc.url";
        }
        Throwable root = rootCause(failure);
        // A driver quotes what it could not use, a host name that holds a user:secret@ among them.
        String message = JdbcUrls.masked(messageOf(root), url);
        if (classify(failure) != Kind.UNREACHABLE) {
            return shown + (has(failure, SQLException.class) ? " answered: " : " failed: ") + message;
        }
        if (has(failure, ConnectException.class)) {
            return shown + " refused the connection (" + message + ")";
        }
        if (has(failure, UnknownHostException.class)) {
            return "the host of " + shown + " is unknown (" + message + ")";
        }
        if (has(failure, SocketTimeoutException.class) || has(failure, SQLTimeoutException.class)
                || root instanceof GetConnectionTimeoutException) {
            return shown + " did not answer in time (" + message + ")";
        }
        return shown + " cannot be reached (" + message + ")";
    }

    private static String messageOf(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : firstLine(message);
    }

    /** Drivers put whole paragraphs into messages; the first line says what happened. */
    private static String firstLine(String message) {
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).strip();
    }

    private static boolean has(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = next(t)) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static Throwable next(Throwable t) {
        Throwable cause = t.getCause();
        return cause == t ? null : cause;
    }
}
