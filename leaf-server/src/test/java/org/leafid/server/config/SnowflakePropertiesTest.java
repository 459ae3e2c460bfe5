package org.leafid.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The record's checks: each only in its mode, durations printed as written. */
class SnowflakePropertiesTest {

    @Test
    void recycleLeaseRuleAppliesOnlyToZkRecycleAndPrintsDurationsAsWritten() {
        assertThat(properties(WorkerIdMode.LOCAL, null, Duration.ofSeconds(11)).mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(properties(WorkerIdMode.ZK_NORMAL, "127.0.0.1:2181", Duration.ofSeconds(11)).mode())
                .isEqualTo(WorkerIdMode.ZK_NORMAL);
        assertThatThrownBy(() -> properties(WorkerIdMode.ZK_RECYCLE, "127.0.0.1:2181", Duration.ofSeconds(11)))
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("leaf.snowflake.recycle.lease");
                    assertThat(e.problem()).contains("is 30s", "(11s) + 10s = 32s").doesNotContain("PT");
                    assertThat(e.fix()).contains("at least 32s");
                });
    }

    @Test
    void zookeeperAddressIsRequiredOnlyInTheZkModes() {
        assertThat(properties(WorkerIdMode.MYSQL, null, Duration.ofSeconds(3)).mode()).isEqualTo(WorkerIdMode.MYSQL);
        assertThatThrownBy(() -> properties(WorkerIdMode.ZK_RECYCLE, " ", Duration.ofSeconds(3)))
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.key()).isEqualTo("leaf.snowflake.zk.address"))
                .hasMessageContaining("leaf.snowflake.mode=zk_recycle");
    }

    @Test
    void modeUnsetFollowsMeituanLeafsRule() {
        assertThat(properties(null, "10.0.0.1:2181", Duration.ofSeconds(3)).mode()).isEqualTo(WorkerIdMode.ZK_NORMAL);
        assertThat(properties(null, "", Duration.ofSeconds(3)).mode()).isEqualTo(WorkerIdMode.LOCAL);
        assertThat(WorkerIdModeChoice.of(WorkerIdMode.LOCAL, "10.0.0.1:2181").reason())
                .isEqualTo("leaf.snowflake.mode=local");
    }

    @Test
    void negativeWaitIsRefusedNamingTheKeyAndTheValueAsWritten() {
        assertThatThrownBy(() -> new SnowflakeProperties(true, null, zk(null), null, null, 1288834974657L,
                new SnowflakeProperties.Local("{}", 0), Duration.ofSeconds(3), Duration.ofMillis(-1500),
                Duration.ofMillis(5), new SnowflakeProperties.Recycle(Duration.ofSeconds(30), Duration.ofSeconds(5))))
                .hasMessage("leaf.snowflake.max-start-wait is -1500ms but must not be negative. "
                        + "Set it to 0 or a duration such as 500ms, 30s or 2m.");
    }

    private static SnowflakeProperties properties(WorkerIdMode mode, String zkAddress, Duration reportInterval) {
        return new SnowflakeProperties(true, mode, zk(zkAddress), null, null, 1288834974657L,
                new SnowflakeProperties.Local("{}", 0), reportInterval, Duration.ofSeconds(10), Duration.ofMillis(5),
                new SnowflakeProperties.Recycle(Duration.ofSeconds(30), Duration.ofSeconds(5)));
    }

    private static SnowflakeProperties.Zk zk(String address) {
        return new SnowflakeProperties.Zk(address, Duration.ofSeconds(15), Duration.ofSeconds(3));
    }
}
