package org.leafid.autoconfigure.snowflake.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.core.snowflake.SnowflakeLayout;

/** The pod name read as the {@code kubernetes} mode reads it, and the worker id it gives within a layout. */
class PodOrdinalTest {

    private static final SnowflakeLayout LEAF = SnowflakeLayout.leafDefault();
    /** 8 worker bits: ids 0..255. */
    private static final SnowflakeLayout NARROW = new SnowflakeLayout(43, 8, 12, SnowflakeLayout.Unit.MILLISECONDS,
            SnowflakeLayout.DEFAULT_TWEPOCH);

    @Test
    void theOrdinalIsTheNumberAfterTheLastDash() {
        assertThat(PodOrdinal.of(null, "leaf-7").workerId(0, LEAF)).isEqualTo(7);
        assertThat(PodOrdinal.of(null, "leaf-0").workerId(0, LEAF)).isEqualTo(0);
        assertThat(PodOrdinal.of(null, "id-service-east-12").ordinal()).isEqualTo(12);
        assertThat(PodOrdinal.of(null, " leaf-3\n").podName()).isEqualTo("leaf-3");
    }

    @Test
    void anOrdinalNotWrittenAsAStatefulSetWritesItIsRefusedNamingTheKey() {
        for (String name : new String[] {"leaf--1", "leaf-07", "leaf-00", "leaf-+1", "-3", "leaf-", "leaf-1a"}) {
            assertThatThrownBy(() -> PodOrdinal.of(name, null)).as(name)
                    .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                        assertThat(e.key()).isEqualTo("leaf.snowflake.kubernetes.pod-name");
                        assertThat(e.problem()).contains("'" + name + "'", "leading zero");
                    });
            assertThatThrownBy(() -> PodOrdinal.of(null, name)).as("HOSTNAME " + name)
                    .isInstanceOfSatisfying(LeafConfigurationException.class,
                            e -> assertThat(e.problem()).contains("HOSTNAME"));
        }
        assertThat(PodOrdinal.of(null, "leaf-10").ordinal()).isEqualTo(10);
        assertThat(PodOrdinal.of(null, "my-leaf-0").ordinal()).isZero();
    }

    @Test
    void theKeyWinsOverHostnameAndTheMessagesSayWhichWasRead() {
        PodOrdinal configured = PodOrdinal.of("leaf-2", "other-9");
        assertThat(configured.ordinal()).isEqualTo(2);
        assertThat(configured.origin()).isEqualTo("leaf.snowflake.kubernetes.pod-name");
        assertThat(PodOrdinal.of(" ", "leaf-9").origin()).isEqualTo("the HOSTNAME environment variable");
        assertThat(PodOrdinal.of(" ", "leaf-9").ordinal()).isEqualTo(9);
    }

    @Test
    void theOffsetShiftsTheOrdinalUpToTheLayoutsLargestWorkerId() {
        assertThat(PodOrdinal.of(null, "leaf-2").workerId(10, LEAF)).isEqualTo(12);
        assertThat(PodOrdinal.of(null, "leaf-3").workerId(1020, LEAF)).isEqualTo(1023);
        assertThat(PodOrdinal.of(null, "leaf-255").workerId(0, NARROW)).isEqualTo(255);
    }

    @Test
    void anIdPastTheLayoutIsRefusedNamingTheOffsetAndTheLargestId() {
        assertThatThrownBy(() -> PodOrdinal.of(null, "leaf-4").workerId(1020, LEAF))
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo("leaf.snowflake.kubernetes.offset");
                    assertThat(e.problem()).contains("is 1020", "'leaf-4'", "HOSTNAME", "would be 1024", "past 1023",
                            "41/10/12 ms");
                    assertThat(e.fix()).contains("offset + replicas - 1", "leaf.snowflake.layout.worker-bits");
                })
                .message().doesNotContain("\n");
        assertThatThrownBy(() -> PodOrdinal.of("leaf-256", null).workerId(0, NARROW))
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.problem()).contains("would be 256", "past 255"));
        assertThatThrownBy(() -> PodOrdinal.of(null, "leaf-" + "9".repeat(40)).workerId(Integer.MAX_VALUE, LEAF))
                .as("digits beyond a long, and a huge offset, are refused, not wrapped round")
                .isInstanceOfSatisfying(LeafConfigurationException.class,
                        e -> assertThat(e.problem()).contains("past 1023"));
    }

    @Test
    void aNameWithoutAnOrdinalIsRefusedNamingTheKey() {
        for (String name : new String[] {"leaf", "leaf-", "leaf-7d9f8b-x2k4q", "leaf-7a", "-7", "leaf-+7", "leaf-٣"}) {
            assertThatThrownBy(() -> PodOrdinal.of(null, name)).as(name)
                    .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                        assertThat(e.key()).isEqualTo("leaf.snowflake.kubernetes.pod-name");
                        assertThat(e.problem()).contains("'" + name + "'", "from the HOSTNAME environment variable");
                        assertThat(e.fix()).contains("StatefulSet", "leaf.snowflake.mode");
                    });
        }
        assertThatThrownBy(() -> PodOrdinal.of("web", "leaf-1"))
                .hasMessageContaining("'web' (from leaf.snowflake.kubernetes.pod-name)");
    }

    @Test
    void noNameAtAllIsRefusedNamingTheKeyAndHostname() {
        for (String hostname : new String[] {null, "", "  "}) {
            assertThatThrownBy(() -> PodOrdinal.of(null, hostname))
                    .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                        assertThat(e.key()).isEqualTo("leaf.snowflake.kubernetes.pod-name");
                        assertThat(e.problem()).contains("unset and so is HOSTNAME");
                    });
        }
    }
}
