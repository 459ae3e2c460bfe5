package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The valid keys come from the records' generated metadata; typos find the key meant. */
class LeafKeysTest {

    private final LeafKeys keys = LeafKeys.fromMetadata(getClass().getClassLoader());

    @Test
    void everyRecordKeyIsKnownInAnyRelaxedSpelling() {
        assertThat(keys.contains("leaf.snowflake.local.workIdMap")).isTrue();
        assertThat(keys.contains("leaf.snowflake.local.work-id-map")).isTrue();
        assertThat(keys.contains("leaf.snowflake.zk.address")).isTrue();
        assertThat(keys.contains("leaf.snowflake.recycle.sweep-interval")).isTrue();
        assertThat(keys.contains("leaf.jdbc.password")).isTrue();
        assertThat(keys.contains("leaf.snowflake.enbale")).isFalse();
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
