package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.snowflake.SnowflakeProperties;
import org.leafid.autoconfigure.mode.WorkerIdMode;
import org.leafid.autoconfigure.mode.WorkerIdModeChoice;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The record's checks, bound as the server binds it: each only in its mode, durations printed as written. */
class SnowflakePropertiesTest {

    @Test
    void recycleLeaseRuleAppliesOnlyToZkRecycleAndPrintsDurationsAsWritten() {
        assertThat(bind("report-interval", "11s").mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(bind("report-interval", "11s", "mode", "zk_normal", "zk.address", "127.0.0.1:2181").mode())
                .isEqualTo(WorkerIdMode.ZK_NORMAL);
        refused("report-interval", "11s", "mode", "zk-recycle", "zk.address", "127.0.0.1:2181")
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("leaf.snowflake.recycle.lease");
                    assertThat(e.problem()).contains("is 30s", "(11s) + 10s = 32s").doesNotContain("PT");
                    assertThat(e.fix()).contains("at least 32s");
                });
    }

    @Test
    void redisLeaseMustOutlastTheReservationHorizonInRedisModeOnly() {
        assertThat(bind("mode", "redis").redis().lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(bind("mode", "redis").redis().keyPrefix()).isEmpty();
        assertThat(bind("mode", "local", "redis.lease", "5s").mode()).isEqualTo(WorkerIdMode.LOCAL);
        refused("mode", "redis", "redis.lease", "15s")
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("leaf.snowflake.redis.lease");
                    assertThat(e.problem()).contains("is 15s", "(3s) + 10s = 16s");
                    assertThat(e.fix()).contains("leaf.snowflake.redis.lease to at least 16s");
                });
        refused("mode", "redis", "redis.key-prefix", "  ")
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.redis.key-prefix"));
    }

    @Test
    void zookeeperAddressIsRequiredOnlyInTheZkModes() {
        assertThat(bind("mode", "mysql").mode()).isEqualTo(WorkerIdMode.MYSQL);
        assertThat(bind("mode", "zk_recycle", "enable", "off").mode()).isEqualTo(WorkerIdMode.ZK_RECYCLE);
        refused("mode", "ZK_RECYCLE", "zk.address", " ")
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.zk.address"))
                .hasMessageContaining("leaf.snowflake.mode=zk_recycle");
    }

    @Test
    void modeUnsetFollowsMeituanLeafsRule() {
        assertThat(bind("zk.address", "10.0.0.1:2181").mode()).isEqualTo(WorkerIdMode.ZK_NORMAL);
        assertThat(bind("zk.address", "").mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(bind("zk.address", "10.0.0.1:2181", "mode", "local").mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(WorkerIdModeChoice.of(WorkerIdMode.LOCAL, "10.0.0.1:2181").reason())
                .isEqualTo("leaf.snowflake.mode=local");
    }

    @Test
    void negativeWaitIsRefusedNamingTheKeyAndTheValueAsWritten() {
        refused("max-start-wait", "-1500ms").hasMessage("leaf.snowflake.max-start-wait is -1500ms but must not be "
                + "negative. Set it to 0 or a duration such as 500ms, 30s or 2m.");
    }

    private static SnowflakeProperties bind(String... keysAndValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put("leaf.snowflake." + keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("leaf.snowflake", SnowflakeProperties.class);
    }

    /** The record's own exception, out of the binder's wrapping. */
    private static AbstractThrowableAssert<?, ? extends Throwable> refused(String... keysAndValues) {
        return assertThatThrownBy(() -> bind(keysAndValues)).rootCause();
    }
}
