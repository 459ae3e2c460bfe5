package org.leafid.server.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/** The keys every test of a running server sets: its database and a data directory of its own. */
public final class TestServerKeys {

    private TestServerKeys() {}

    /** {@code leaf.jdbc.*} of the test database, and a new temporary {@code leaf.data-dir}. */
    public static void onTheTestDatabase(DynamicPropertyRegistry registry, TestDatabase database, String name)
            throws IOException {
        onTheTestDatabase(registry, database, database::url, name);
    }

    /**
     * The same with the database reached at {@code jdbcUrl}, e.g. through a proxy the test can cut;
     * {@code name} names the data directory, so a leftover one says which test made it.
     */
    public static void onTheTestDatabase(DynamicPropertyRegistry registry, TestDatabase database,
            Supplier<Object> jdbcUrl, String name) throws IOException {
        Path dataDir = Files.createTempDirectory("leaf-" + name + "-test");
        registry.add("leaf.jdbc.url", jdbcUrl);
        registry.add("leaf.jdbc.username", database::user);
        registry.add("leaf.jdbc.password", database::password);
        registry.add("leaf.data-dir", dataDir::toString);
    }
}
