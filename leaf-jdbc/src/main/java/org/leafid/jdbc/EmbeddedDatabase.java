package org.leafid.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Where the embedded H2 database lives when no {@code leaf.jdbc.url} is set, and its schema. */
public final class EmbeddedDatabase {

    /** The sample shard app, beside the sample tag that {@code sql/leaf_alloc.sql} inserts. */
    private static final String SAMPLES = "/db/h2-samples.sql";

    /**
     * The tables of the embedded database: the scripts of {@code sql/} as an operator runs them on
     * MySQL (H2's MySQL mode reads them), each of which keeps an existing table and its rows.
     */
    private static final List<String> SCRIPTS = List.of("leaf_alloc.sql", "id_alloc.sql", "leaf_shard.sql",
            "leaf_high_water.sql", "leaf_format.sql");

    private EmbeddedDatabase() {}

    /** Whether H2 is on the classpath: the server brings it, an application embedding Leaf may not. */
    public static boolean available() {
        try {
            Class.forName("org.h2.Driver", false, EmbeddedDatabase.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The database's base name under {@code leaf.data-dir}; H2 adds {@code .mv.db}. */
    public static Path basePath(Path dataDir) {
        return dataDir.toAbsolutePath().normalize().resolve("leaf-db");
    }

    /** The H2 url of the database in {@code dataDir}. */
    public static String url(Path dataDir) {
        return "jdbc:h2:file:" + basePath(dataDir) + ";MODE=MySQL;DATABASE_TO_LOWER=TRUE";
    }

    /** The file an operator finds on disk. */
    public static Path file(Path dataDir) {
        return basePath(dataDir).resolveSibling(basePath(dataDir).getFileName() + ".mv.db");
    }

    /**
     * Creates the tables, the sample tag and the sample shard app where they are missing; existing
     * tables and rows are kept, so it runs on every start.
     */
    public static void createSchema(Connection connection) throws IOException, SQLException {
        for (String script : SCRIPTS) {
            TableScripts.run(connection, SqlDialect.MYSQL, script);
        }
        try (InputStream in = EmbeddedDatabase.class.getResourceAsStream(SAMPLES)) {
            if (in == null) {
                throw new IOException(SAMPLES + " is missing from the classpath");
            }
            TableScripts.runStatements(connection, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
