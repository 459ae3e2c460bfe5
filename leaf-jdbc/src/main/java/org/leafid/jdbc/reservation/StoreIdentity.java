package org.leafid.jdbc.reservation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which database server a connection is on, as a name that changes when another server takes over
 * with a copy of the data: a failover to a standby or replica, a physical restore. The copy may
 * lack the last writes of the server before it, so the name is compared with the one this fleet
 * recorded ({@link StoreIdentityGuard}).
 *
 * <ul>
 *   <li>PostgreSQL: the cluster's system identifier and the WAL timeline; a standby has the same
 *       identifier as its primary, and promoting it starts a new timeline.</li>
 *   <li>MariaDB Galera: the cluster's state UUID, the same on every node (a commit is on every
 *       node that goes on), so writing through another node is no change.</li>
 *   <li>MySQL and MariaDB otherwise: host, port and {@code server_id} (every server of a
 *       replication topology has its own {@code server_id}).</li>
 * </ul>
 *
 * <p>Each is followed by the name of the database itself ({@code DATABASE()},
 * {@code current_database()}): a copy loaded under another name, on the same server or another, is
 * not the original, and no failover moves a database to another name ({@link Name}).
 */
public final class StoreIdentity {

    /** PostgreSQL's: a column of the one-statement reservations ({@code LeafAllocOneTripMapper}). */
    public static final String POSTGRESQL = "((SELECT system_identifier FROM pg_control_system())::text"
            + " || '/' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8) || '" + Name.SEPARATOR
            + "' || current_database())";
    private static final String MYSQL_DATABASE = ", '" + Name.SEPARATOR + "', COALESCE(DATABASE(), ''))";
    private static final String GALERA = "(SELECT CONCAT('galera:', VARIABLE_VALUE" + MYSQL_DATABASE
            + " FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_CLUSTER_STATE_UUID')";
    private static final String MYSQL = "CONCAT(@@hostname, ':', @@port, '#', @@server_id" + MYSQL_DATABASE;
    /** For a MySQL-protocol database without {@code @@server_id} (TiDB may lack it). */
    private static final String HOST_AND_PORT = "CONCAT(@@hostname, ':', @@port" + MYSQL_DATABASE;

    private static final Logger log = LoggerFactory.getLogger(StoreIdentity.class);

    private StoreIdentity() {}

    /**
     * The SQL expression that names the server a statement runs on, for the kind of database
     * {@code connection} is on (asked once: a failover does not change the kind); null for the
     * embedded H2, one process with no copy to fail over to, and for a database that answers none
     * of the expressions (said once at WARN).
     */
    static String expression(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String product = meta.getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.equals("h2")) {
            return null;
        }
        if (product.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (meta.getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb")
                && "1".equals(answer(connection, "@@wsrep_on + 0"))) {
            return GALERA;
        }
        // Each candidate is tried once, so that a MySQL-protocol database lacking a variable (a MariaDB
        // built without Galera has no @@wsrep_on) falls back rather than failing every reservation.
        for (String candidate : List.of(MYSQL, HOST_AND_PORT)) {
            if (answer(connection, candidate) != null) {
                return candidate;
            }
        }
        log.warn("Leaf cannot read which server {} {} is (@@hostname, @@port): a failover to a copy that lagged, or a"
                + " restore, is not noticed on it, and only each server's memory of its own blocks guards the rows;"
                + " see docs/databases.md", meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
        return null;
    }

    /** What {@code SELECT expression} answers, or null when the database refuses it. */
    private static String answer(Connection connection, String expression) {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT " + expression)) {
            return result.next() ? result.getString(1) : null;
        } catch (SQLException notThere) {
            return null;
        }
    }

    /**
     * An identity as the expression answers it, in its two parts: the server (which a failover or
     * a physical restore changes) and the database's name (which only a copy changes).
     */
    public record Name(String server, String database) {

        /** Between the two parts; neither a server's part nor a MySQL or PostgreSQL default has it. */
        static final String SEPARATOR = "|";

        public static Name parse(String identity) {
            int at = identity.indexOf(SEPARATOR);
            return at < 0 ? new Name(identity, "") : new Name(identity.substring(0, at), identity.substring(at + 1));
        }

        @Override
        public String toString() {
            return "database " + (database.isEmpty() ? "(none named)" : "'" + database + "'") + " on " + server;
        }
    }

    /** The name as the 64-bit number {@code leaf_high_water} keeps (the first 8 bytes of its SHA-256). */
    static long hash(String identity) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            long hash = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                hash = (hash << 8) | (digest[i] & 0xFF);
            }
            return hash;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
