package org.leafid.autoconfigure.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts an application that embeds the starter as its main method would, without a web server.
 * Settings are command-line arguments, the highest precedence, so that no {@code leaf.properties}
 * lying around can change what a test runs with.
 */
public final class LeafApplications {

    private LeafApplications() {}

    public static ConfigurableApplicationContext start(Class<?> application, List<String> settings) {
        return new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .run(settings.stream().map(setting -> "--" + setting).toArray(String[]::new));
    }

    /**
     * What every test application is given: its own cluster name (the ZooKeeper paths and cache
     * files of tests stay apart), a temporary data dir, and a fixed address naming this instance.
     */
    public static List<String> baseSettings(String name, Path dataDir, int port) {
        return new ArrayList<>(List.of(
                "leaf.name=" + name,
                "leaf.data-dir=" + dataDir,
                "leaf.snowflake.ip=127.0.0.1",
                "leaf.snowflake.port=" + port));
    }

    /** {@code leaf.jdbc.*} pointing at the test database: Leaf's own pool on it. */
    public static List<String> jdbcSettings(TestDatabase database) {
        return List.of(
                "leaf.jdbc.url=" + database.url(),
                "leaf.jdbc.username=" + database.user(),
                "leaf.jdbc.password=" + database.password());
    }
}
