package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/** The valid keys come from the records' generated metadata; typos find the key meant. */
class LeafKeysTest {

    private final LeafKeys keys = LeafKeys.fromMetadata(getClass().getClassLoader());

    @Test
    void everyRecordKeyIsKnownInAnyRelaxedSpelling() {
        assertThat(keys.contains("leaf.snowflake.local.workIdMap")).isTrue();
        assertThat(keys.contains("leaf.snowflake.local.work-id-map")).isTrue();
        assertThat(keys.contains("leaf.snowflake.zk.address")).isTrue();
        assertThat(keys.contains("leaf.snowflake.recycle.sweep-interval")).isTrue();
        assertThat(keys.contains("leaf.admin.token")).isTrue();
        assertThat(keys.contains("leaf.jdbc.password")).isTrue();
        assertThat(keys.contains("leaf.max-batch")).isTrue();
        assertThat(keys.contains("leaf.snowflake.enbale")).isFalse();
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
                        .equals(ConfigurationPropertyName.of(key))));
    }

    @Test
    void closestKeyIsTheTypoFixOrTheKeyEndingTheSameWay() {
        assertThat(keys.closest("leaf.snowflake.enbale")).contains("leaf.snowflake.enable");
        assertThat(keys.closest("leaf.segmnet.refresh-interval")).contains("leaf.segment.refresh-interval");
        assertThat(keys.closest("leaf.snowflake.local.workIdMpa")).contains("leaf.snowflake.local.work-id-map");
        assertThat(keys.closest("leaf.zk.address")).contains("leaf.snowflake.zk.address");
        assertThat(keys.closest("leaf.colour")).isEmpty();
    }
}
