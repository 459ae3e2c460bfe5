package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** Micrometer is optional: without it on the class path the client is built, used and closed. */
class WithoutMicrometerTest {

    @Test
    void theClientRunsWithNoMicrometerClassOnTheClassPath() throws Exception {
        URL client = LeafClient.class.getProtectionDomain().getCodeSource().getLocation();
        URL slf4j = Logger.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {client, slf4j},
                ClassLoader.getPlatformClassLoader())) {
            assertThat(loader.getResource("io/micrometer/core/instrument/MeterRegistry.class")).isNull();
            Class<?> type = loader.loadClass(LeafClient.class.getName());
            Object builder = type.getMethod("builder").invoke(null);
            Class<?> builderType = builder.getClass();
            builderType.getMethod("servers", List.class).invoke(builder, List.of("http://127.0.0.1:9"));
            AutoCloseable leaf = (AutoCloseable) builderType.getMethod("build").invoke(builder);
            Object source = type.getMethod("snowflake").invoke(leaf);
            Class<?> idSource = loader.loadClass(IdSource.class.getName());
            assertThat(idSource.getMethod("buffered").invoke(source)).isEqualTo(0);
            Object servers = type.getMethod("servers").invoke(leaf);
            assertThat((List<?>) servers).hasSize(1);
            leaf.close();
        }
    }
}
