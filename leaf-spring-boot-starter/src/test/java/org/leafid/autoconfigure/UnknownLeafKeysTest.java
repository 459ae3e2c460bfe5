package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

/** Where an unknown key was written, and the environment variables that are left alone. */
class UnknownLeafKeysTest {

    @TempDir
    Path dir;

    @Test
    void unknownKeyInAFileIsReportedWithTheFileAndLine() throws Exception {
        Path file = Files.writeString(dir.resolve("leaf.properties"), "leaf.name=a\nleaf.snowflake.zk.adress=x:2181\n");
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new PropertiesPropertySourceLoader()
                .load("leaf.properties", new FileSystemResource(file)).get(0));
        assertThatThrownBy(() -> check(environment))
                .isInstanceOf(LeafConfigurationException.class)
                .hasMessageContaining("leaf.snowflake.zk.adress is not a Leaf key (")
                .hasMessageContaining(file.toString())
                .hasMessageContaining(" - 2:")
                .hasMessageContaining("Did you mean leaf.snowflake.zk.address");
    }

    @Test
    void environmentVariablesAreNotChecked() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("LEAF_TEST_JDBC_URL", "jdbc:mysql://127.0.0.1/x", "leaf.test.other", "1")));
        assertThatCode(() -> check(environment)).doesNotThrowAnyException();
    }

    private static void check(StandardEnvironment environment) {
        new UnknownLeafKeys(new DeferredLogs()).postProcessEnvironment(environment, new SpringApplication());
    }
}
