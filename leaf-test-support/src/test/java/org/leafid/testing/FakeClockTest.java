package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FakeClockTest {

    private final FakeClock clock = new FakeClock(1_000);

    @Test
    void movesOnlyWhenTold() {
        assertThat(clock.millis()).isEqualTo(1_000);
        assertThat(clock.instant()).isEqualTo(Instant.ofEpochMilli(1_000));

        assertThat(clock.advance(5)).isEqualTo(1_005);
        assertThat(clock.advance(Duration.ofSeconds(1))).isEqualTo(2_005);
        assertThat(clock.stepBack(10)).isEqualTo(1_995);
        clock.set(42);
        assertThat(clock.millis()).isEqualTo(42);
    }

    @Test
    void sleepingAdvancesTheClockAndIsCounted() {
        clock.sleepMillis(3);
        clock.sleepMillis(0);
        clock.awaitTick();

        assertThat(clock.millis()).isEqualTo(1_004);
        assertThat(clock.sleepCount()).isEqualTo(2);
        assertThat(clock.sleptMillis()).isEqualTo(3);
        assertThat(clock.tickCount()).isEqualTo(1);
    }

    @Test
    void negativeMovesAreRejected() {
        assertThatThrownBy(() -> clock.advance(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> clock.stepBack(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> clock.sleepMillis(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(clock.millis()).isEqualTo(1_000);
    }
}
