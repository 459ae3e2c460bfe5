package org.leafid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.LeafKeys;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The server's keys are the starter's plus its own ({@code leaf.admin.*}, {@code leaf.max-batch},
 * ...): here, with every module's configuration metadata on the classpath, the whole set is known.
 */
class LeafServerKeysTest {

    private final LeafKeys keys = LeafKeys.fromMetadata(getClass().getClassLoader());

    @Test
    void serverKeysAreKnownBesideTheStartersKeys() {
        assertThat(keys.contains("leaf.admin.token")).isTrue();
        assertThat(keys.contains("leaf.max-batch")).isTrue();
        assertThat(keys.contains("leaf.snowflake.zk.address")).isTrue();
    }

    /** The commented example at the repository root lists exactly the keys the records read. */
    @Test
    void propertiesExampleListsEveryKeyAndNoOther() throws Exception {
        List<String> listed = Files.readAllLines(Path.of("../leaf.properties.example")).stream()
                .filter(line -> line.startsWith("#leaf."))
                .map(line -> line.substring(1, line.indexOf('=')))
                .toList();
        assertThat(listed).allMatch(keys::contains);
        assertThat(keys.names()).allSatisfy(key -> assertThat(listed)
                .anyMatch(written -> ConfigurationPropertyName.adapt(written, '.')
                        .equals(ConfigurationPropertyName.of(key))
                        // a list's items: leaf.jdbc.stores[0].url lists leaf.jdbc.stores
                        || ConfigurationPropertyName.of(key).isAncestorOf(ConfigurationPropertyName.adapt(written, '.'))));
    }

}
