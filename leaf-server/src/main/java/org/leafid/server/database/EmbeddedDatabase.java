package org.leafid.server.database;

import java.nio.file.Path;

/** Where the embedded H2 database lives when no {@code leaf.jdbc.url} is set. */
public final class EmbeddedDatabase {

    private EmbeddedDatabase() {}

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
}
