package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.autoconfigure.snowflake.redis.RedisModeSettings;
import org.leafid.autoconfigure.snowflake.zkrecycle.ZkRecycleSettings;
import org.leafid.autoconfigure.snowflake.zookeeper.ZookeeperSettings;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The worker-id modes' settings records, bound as the server binds them: each checks its own keys,
 * the lease rules hold against the report interval when the mode uses them, and durations print as
 * written.
 */
class WorkerIdModeSettingsTest {

    @Test
    void recycleLeaseMustOutlastTheReservationHorizonAndPrintsDurationsAsWritten() {
        ZkRecycleSettings settings = bind("leaf.snowflake.recycle", ZkRecycleSettings.class);
        assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.checkedAgainst(Duration.ofSeconds(10))).isEqualTo(settings); // 2 x 10s + 10s = 30s
        assertThatThrownBy(() -> settings.checkedAgainst(Duration.parse("PT11S")))
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("leaf.snowflake.recycle.lease");
                    assertThat(e.problem()).contains("is 30s", "(11s) + 10s = 32s").doesNotContain("PT");
                    assertThat(e.fix()).contains("at least 32s");
                });
        refused("leaf.snowflake.recycle", ZkRecycleSettings.class, "sweep-interval", "0s")
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.recycle.sweep-interval"));
    }

    @Test
    void redisLeaseMustOutlastTheReservationHorizonAndItsPrefixMustNotBeBlank() {
        RedisModeSettings settings = bind("leaf.snowflake.redis", RedisModeSettings.class);
        assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.keyPrefix()).isEmpty();
        RedisModeSettings shortLease = bind("leaf.snowflake.redis", RedisModeSettings.class, "lease", "15s");
        assertThatThrownBy(() -> shortLease.checkedAgainst(Duration.ofSeconds(3)))
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("leaf.snowflake.redis.lease");
                    assertThat(e.problem()).contains("is 15s", "(3s) + 10s = 16s");
                    assertThat(e.fix()).contains("leaf.snowflake.redis.lease to at least 16s");
                });
        refused("leaf.snowflake.redis", RedisModeSettings.class, "key-prefix", "  ")
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.redis.key-prefix"));
    }

    @Test
    void zookeeperAddressIsRequiredWhenAZooKeeperModeAsksForIt() {
        ZookeeperSettings unset = bind("leaf.snowflake.zk", ZookeeperSettings.class, "address", " ");
        assertThatThrownBy(() -> unset.requiredAddress(WorkerIdMode.ZK_RECYCLE.key()))
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.zk.address"))
                .hasMessageContaining("leaf.snowflake.mode=zk_recycle");
        assertThat(bind("leaf.snowflake.zk", ZookeeperSettings.class, "address", "127.0.0.1:2181")
                .requiredAddress("zk_normal")).isEqualTo("127.0.0.1:2181");
    }

    @Test
    void modeUnsetFollowsMeituanLeafsRule() {
        assertThat(WorkerIdModeChoice.of(null, "10.0.0.1:2181").mode()).isEqualTo(WorkerIdMode.ZK_NORMAL);
        assertThat(WorkerIdModeChoice.of(null, "").mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(WorkerIdModeChoice.of(WorkerIdMode.LOCAL, "10.0.0.1:2181").mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(WorkerIdModeChoice.of(WorkerIdMode.LOCAL, "10.0.0.1:2181").reason())
                .isEqualTo("leaf.snowflake.mode=local");
        assertThat(bind("leaf.snowflake", SnowflakeProperties.class, "mode", "zk-recycle").mode())
                .as("every spelling the binder reads").isEqualTo(WorkerIdMode.ZK_RECYCLE);
    }

    @Test
    void negativeWaitIsRefusedNamingTheKeyAndTheValueAsWritten() {
        refused("leaf.snowflake", SnowflakeProperties.class, "max-start-wait", "-1500ms").hasMessage(
                "leaf.snowflake.max-start-wait is -1500ms but must not be negative. Set it to 0 or a duration such "
                        + "as 500ms, 30s or 2m.");
    }

    private static <T> T bind(String prefix, Class<T> record, String... keysAndValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(prefix + "." + keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, record);
    }

    /** The record's own exception, out of the binder's wrapping. */
    private static AbstractThrowableAssert<?, ? extends Throwable> refused(String prefix, Class<?> record,
            String... keysAndValues) {
        return assertThatThrownBy(() -> bind(prefix, record, keysAndValues)).rootCause();
    }
}
