package org.leafid.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

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
 */
public final class StoreIdentity {

    /** PostgreSQL's: a column of the one-statement reservations ({@code LeafAllocOneTripMapper}). */
    public static final String POSTGRESQL = "((SELECT system_identifier FROM pg_control_system())::text"
            + " || '/' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))";
    private static final String GALERA = "(SELECT CONCAT('galera:', VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS"
            + " WHERE VARIABLE_NAME = 'WSREP_CLUSTER_STATE_UUID')";
    private static final String MYSQL = "CONCAT(@@hostname, ':', @@port, '#', @@server_id)";

    private StoreIdentity() {}

    /**
     * The SQL expression that names the server a statement runs on, for the kind of database
     * {@code connection} is on (asked once: a failover does not change the kind); null for the
     * embedded H2, one process with no copy to fail over to.
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
        if (meta.getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb")) {
            try (Statement statement = connection.createStatement();
                    ResultSet wsrep = statement.executeQuery("SELECT @@wsrep_on + 0")) {
                if (wsrep.next() && wsrep.getInt(1) == 1) {
                    return GALERA;
                }
            }
        }
        return MYSQL;
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
