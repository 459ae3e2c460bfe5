package org.leafid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The SQL Leaf speaks to a database: MySQL's (MySQL, MariaDB, TiDB, and the embedded H2 in its
 * MySQL mode) or PostgreSQL's (PostgreSQL, and the databases that speak its protocol). Chosen by the
 * JDBC url alone; the few statements that differ are given per dialect in the mappers, as MyBatis
 * {@code databaseId}s.
 */
public enum SqlDialect {
    MYSQL("mysql"),
    POSTGRESQL("postgresql");

    /** What a start that cannot use the url lists. */
    public static final String SUPPORTED = "MySQL, MariaDB or TiDB (jdbc:mysql:… or jdbc:mariadb:…), "
            + "PostgreSQL (jdbc:postgresql:…), or the embedded H2 (leaf.jdbc.url unset)";

    private final String databaseId;

    SqlDialect(String databaseId) {
        this.databaseId = databaseId;
    }

    /**
     * The script of {@code sql/} that creates a table, named for either kind of database, as failures
     * and logs name it: {@code sql/leaf_alloc.sql (sql/postgresql/leaf_alloc.sql on PostgreSQL)}.
     */
    public static String scripts(String file) {
        return "sql/" + file + " (sql/postgresql/" + file + " on PostgreSQL)";
    }

    /** The MyBatis {@code databaseId} of the statements written for this dialect. */
    public String databaseId() {
        return databaseId;
    }

    /** The dialect whose {@link #databaseId()} is {@code databaseId}; MySQL's when none was set. */
    public static SqlDialect ofDatabaseId(String databaseId) {
        return POSTGRESQL.databaseId.equals(databaseId) ? POSTGRESQL : MYSQL;
    }

    /** The dialect of a JDBC url; empty for a database Leaf does not support. */
    public static Optional<SqlDialect> ofUrl(String url) {
        if (url == null) {
            return Optional.empty();
        }
        String lower = url.trim().toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:h2:")) {
            return Optional.of(MYSQL);
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return Optional.of(POSTGRESQL);
        }
        return Optional.empty();
    }

    /** The dialect of a database by the product name its driver reports; empty for one Leaf does not support. */
    public static Optional<SqlDialect> ofProductName(String productName) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (name.contains("mysql") || name.contains("mariadb") || name.equals("h2")) {
            return Optional.of(MYSQL);
        }
        if (name.contains("postgresql")) {
            return Optional.of(POSTGRESQL);
        }
        return Optional.empty();
    }

    /**
     * The dialect of a pool: from its url when it is Leaf's own pool, else from what the database
     * says it is (one connection, opened once, for an application's DataSource).
     *
     * @throws IllegalArgumentException when the database is not one Leaf supports, or cannot be asked
     */
    public static SqlDialect of(DataSource dataSource) {
        String url = PoolUrls.of(dataSource);
        if (url.startsWith("jdbc:")) {
            return ofUrl(url).orElseThrow(() -> unsupported(JdbcUrls.withoutPassword(url)));
        }
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            return ofProductName(product).orElseThrow(() -> unsupported(product));
        } catch (SQLException e) {
            throw new IllegalArgumentException("Leaf could not ask " + url + " which database it is: "
                    + SqlFailures.describe(e, url), e);
        }
    }

    private static IllegalArgumentException unsupported(String what) {
        return new IllegalArgumentException(what + " is not a database Leaf supports; it supports " + SUPPORTED);
    }
}
