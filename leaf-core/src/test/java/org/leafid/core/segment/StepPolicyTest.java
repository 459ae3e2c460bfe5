package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StepPolicyTest {

    private static final long ROW_STEP = 10;

    private final StepPolicy policy = new StepPolicy(1_000, Duration.ofMinutes(15));

    @Test
    void blockThatLastedLessThanTheTargetDoublesTheStep() {
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(1))).isEqualTo(200);
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(15).minusMillis(1))).isEqualTo(200);
        assertThat(policy.next(100, ROW_STEP, Duration.ZERO)).isEqualTo(200);
    }

    @Test
    void doublingStopsAtTheMaximumStep() {
        assertThat(policy.next(500, ROW_STEP, Duration.ofMinutes(1))).isEqualTo(1_000);
        assertThat(policy.next(1_000, ROW_STEP, Duration.ofMinutes(1))).isEqualTo(1_000);
        // As in Leaf, a doubling that would pass the maximum is skipped rather than clipped to it.
        assertThat(policy.next(600, ROW_STEP, Duration.ofMinutes(1))).isEqualTo(600);
    }

    @Test
    void blockThatLastedBetweenOnceAndTwiceTheTargetKeepsTheStep() {
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(15))).isEqualTo(100);
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(20))).isEqualTo(100);
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(30).minusMillis(1))).isEqualTo(100);
    }

    @Test
    void blockThatLastedTwiceTheTargetOrMoreHalvesTheStep() {
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(30))).isEqualTo(50);
        assertThat(policy.next(100, ROW_STEP, Duration.ofMinutes(31))).isEqualTo(50);
        assertThat(policy.next(100, ROW_STEP, Duration.ofDays(3))).isEqualTo(50);
    }

    @Test
    void halvingStopsAtTheRowStep() {
        assertThat(policy.next(20, ROW_STEP, Duration.ofMinutes(31))).isEqualTo(10);
        assertThat(policy.next(10, ROW_STEP, Duration.ofMinutes(31))).isEqualTo(10);
        // Halving 15 would give 7, below the row's 10: the step stays.
        assertThat(policy.next(15, ROW_STEP, Duration.ofMinutes(31))).isEqualTo(15);
    }

    @Test
    void leafDefaultAimsAtFifteenMinutesWithAMillionAtMost() {
        StepPolicy leaf = StepPolicy.leafDefault();

        assertThat(leaf.maxStep()).isEqualTo(1_000_000);
        assertThat(leaf.target()).isEqualTo(Duration.ofMinutes(15));
    }

    @Test
    void invalidSettingsAreRejected() {
        assertThatThrownBy(() -> new StepPolicy(0, Duration.ofMinutes(15)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StepPolicy(10, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StepPolicy(10, Duration.ofMinutes(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SegmentSettings(StepPolicy.leafDefault(), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
