package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.client.LeafClientProperties;
import org.leafid.autoconfigure.jdbc.JdbcProperties;
import org.leafid.autoconfigure.segment.SegmentProperties;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.autoconfigure.snowflake.local.LocalSettings;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The ranges the records check themselves, bound as the server binds them: each refusal names the key, the
 * value and what to set; the edges of each range are accepted.
 */
class LeafValuesTest {

    @Test
    void outOfRangeNumbersAreRefusedNamingTheKeyTheValueAndTheRange() {
        refused("leaf.jdbc.pool-size", "0", "leaf.jdbc", JdbcProperties.class)
                .hasMessage("leaf.jdbc.pool-size is 0 but must be between 1 and 256. Set it to a whole number from 1 "
                        + "to 256.");
        refused("leaf.max-batch", "100001", "leaf", LeafProperties.class);
        refused("leaf.segment.max-step", "0", "leaf.segment", SegmentProperties.class);
        refused("leaf.segment.max-step", "2147483648", "leaf.segment", SegmentProperties.class);
        refused("leaf.client.max-batch", "0", "leaf.client", LeafClientProperties.class);
        refused("leaf.segment.max-range-batch", "100000001", "leaf.segment", SegmentProperties.class);
        refused("leaf.client.max-range-batch", "0", "leaf.client", LeafClientProperties.class);
        refused("leaf.client.prefetch-threshold", "1.5", "leaf.client", LeafClientProperties.class);
        refused("leaf.snowflake.port", "65536", "leaf.snowflake", SnowflakeProperties.class);
        refused("leaf.snowflake.twepoch", "-1", "leaf.snowflake", SnowflakeProperties.class);
        refused("leaf.snowflake.layout.worker-bits", "0", "leaf.snowflake", SnowflakeProperties.class);
        refused("leaf.snowflake.local.worker-id", "-1", "leaf.snowflake.local", LocalSettings.class);
    }

    @Test
    void badNameIsRefusedSayingWhatANameMayHold() {
        refused("leaf.name", "a b", "leaf", LeafProperties.class)
                .hasMessageContaining("leaf.name is 'a b' but must be 1-64 characters of letters, digits");
        refused("leaf.name", "x".repeat(65), "leaf", LeafProperties.class);
    }

    @Test
    void edgesOfEachRangeAreAccepted() {
        assertThat(bind(Map.of("leaf.jdbc.pool-size", "256"), "leaf.jdbc", JdbcProperties.class).poolSize())
                .isEqualTo(256);
        assertThat(bind(Map.of("leaf.max-batch", "100000", "leaf.name", "a.b_c-9"), "leaf", LeafProperties.class)
                .maxBatch()).isEqualTo(100_000);
        assertThat(bind(Map.of("leaf.client.prefetch-threshold", "0"), "leaf.client", LeafClientProperties.class)
                .prefetchThreshold()).isZero();
        assertThat(bind(Map.of("leaf.segment.max-range-batch", "100000000"), "leaf.segment", SegmentProperties.class)
                .maxRangeBatch()).isEqualTo(100_000_000);
        assertThat(bind(Map.of(), "leaf.client", LeafClientProperties.class).maxRangeBatch()).isEqualTo(1_000_000);
        assertThat(bind(Map.of("leaf.snowflake.port", "1"), "leaf.snowflake", SnowflakeProperties.class).port())
                .isEqualTo(1);
        assertThat(bind(Map.of(), "leaf", LeafProperties.class).name()).isEqualTo("leaf");
    }

    private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> refused(String key,
            String value, String prefix, Class<?> type) {
        return assertThatThrownBy(() -> bind(Map.of(key, value), prefix, type))
                .rootCause()
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> assertThat(e.key()).isEqualTo(key))
                .hasMessageContaining(value);
    }

    private static <T> T bind(Map<String, String> values, String prefix, Class<T> type) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }
}
