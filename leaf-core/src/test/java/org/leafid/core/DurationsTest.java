package org.leafid.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void printsDurationsTheWayTheyAreWritten() {
        assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
        assertThat(Durations.format(Duration.ofSeconds(3661))).isEqualTo("1h1m1s");
        assertThat(Durations.format(Duration.ofMillis(5))).isEqualTo("5ms");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0ms");
        assertThat(Durations.format(Duration.ofSeconds(-3))).isEqualTo("-3s");
        assertThat(Durations.format(Duration.ofNanos(1500))).isEqualTo("1500ns");
    }
}
