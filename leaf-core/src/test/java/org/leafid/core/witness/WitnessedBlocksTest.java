package org.leafid.core.witness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.leafid.core.witness.WitnessedBlocks.Outcome;

/** The claim rule the fleet's witnesses share (ZooKeeper's node; Redis's claim.lua mirrors it). */
class WitnessedBlocksTest {

    private static WitnessedBlocks claimed(WitnessedBlocks witnessed, long start, long end, Outcome expected) {
        WitnessedBlocks.Claimed claimed = witnessed.claim(start, end, WitnessedBlocks.newClaimId(), 4);
        assertThat(claimed.outcome()).as("[%d, %d)", start, end).isEqualTo(expected);
        return claimed.next();
    }

    @Test
    void twoBlocksReservedAfterTheRowWasCarriedThatOverlapAreTwoDatabases() {
        WitnessedBlocks w = claimed(WitnessedBlocks.EMPTY, 0, 100, Outcome.RECORDED);
        w = claimed(w, 0, 100, Outcome.WENT_BACK); // the clone's first block: carried past 100
        assertThat(w.carried()).isEqualTo(100);
        w = claimed(w, 100, 200, Outcome.RECORDED); // the clone's, carried
        w = claimed(w, 100, 200, Outcome.WENT_BACK); // the original's next: impossible for one database, once
        assertThat(w.impossible()).isOne();
        w = claimed(w, 200, 300, Outcome.RECORDED); // the original's, carried
        w = claimed(w, 200, 300, Outcome.FOUND_TWICE); // the clone's next: twice
        assertThat(w.twice()).isTrue();
        w = claimed(w, 5_000, 5_100, Outcome.FOUND_TWICE); // every claim of the key, until released
        w = claimed(w.released(), 300, 400, Outcome.RECORDED);
        assertThat(w.carried()).isEqualTo(Long.MIN_VALUE);
        assertThat(w.impossible()).isZero();
    }

    /** An old primary's block claimed after the new primary's servers carried the row: once is not twice. */
    @Test
    void oneLateBlockOfAnOldPrimaryIsCarriedNotFoundTwice() {
        WitnessedBlocks w = claimed(WitnessedBlocks.EMPTY, 0, 100, Outcome.RECORDED);
        w = claimed(w, 0, 100, Outcome.WENT_BACK); // the lagging replica's first block
        w = claimed(w, 100, 200, Outcome.RECORDED); // carried
        w = claimed(w, 100, 200, Outcome.WENT_BACK); // the old primary's, reserved before the failover
        w = claimed(w, 200, 300, Outcome.RECORDED);
        w = claimed(w, 300, 400, Outcome.RECORDED);
        assertThat(w.twice()).isFalse();
    }

    /** A claim sent again after its write landed (a lost answer) finds its own block: recorded, nothing changed. */
    @Test
    void aClaimSentAgainIsRecordedOnce() {
        WitnessedBlocks.Claimed first = WitnessedBlocks.EMPTY.claim(0, 100, "a1", 4);
        WitnessedBlocks.Claimed again = first.next().claim(0, 100, "a1", 4);
        assertThat(again.outcome()).isEqualTo(Outcome.RECORDED);
        assertThat(again.next()).isSameAs(first.next());
        assertThat(first.next().claim(0, 100, "b2", 4).outcome()).as("another claim of it").isEqualTo(
                Outcome.WENT_BACK);
    }

    @Test
    void aStaleBlockBelowWhereTheRowWasCarriedIsARowThatWentBack() {
        WitnessedBlocks w = claimed(WitnessedBlocks.EMPTY, 0, 100, Outcome.RECORDED);
        w = claimed(w, 100, 200, Outcome.RECORDED);
        w = claimed(w, 0, 100, Outcome.WENT_BACK); // restored to 0: carried past 200
        w = claimed(w, 200, 300, Outcome.RECORDED);
        w = claimed(w, 100, 200, Outcome.WENT_BACK); // another server's, reserved before the carry
        assertThat(w.twice()).isFalse();
    }

    @Test
    void whereTheRowWasCarriedIsForgottenOnceTheFloorPassesIt() {
        WitnessedBlocks w = claimed(WitnessedBlocks.EMPTY, 0, 100, Outcome.RECORDED);
        w = claimed(w, 0, 100, Outcome.WENT_BACK);
        for (int i = 1; i <= 4; i++) {
            w = claimed(w, 100L * i, 100L * i + 100, Outcome.RECORDED);
        }
        assertThat(w.floor()).isEqualTo(100);
        assertThat(w.carried()).as("forgotten: a second restore much later is a restore").isEqualTo(Long.MIN_VALUE);
        w = claimed(w, 300, 400, Outcome.WENT_BACK);
        assertThat(w.twice()).isFalse();
    }

    @Test
    void theTextKeepsEverythingAndTheFormBeforeCarriedIsRead() {
        WitnessedBlocks w = claimed(WitnessedBlocks.EMPTY, 0, 100, Outcome.RECORDED);
        w = claimed(w, 0, 100, Outcome.WENT_BACK);
        WitnessedBlocks read = WitnessedBlocks.parse(w.toBytes(), "test");
        assertThat(read.carried()).isEqualTo(100);
        assertThat(read.high()).isEqualTo(100);
        assertThat(read.blocks()).hasSize(1);

        byte[] beforeCarried = "100 -9223372036854775808\n0 100".getBytes(StandardCharsets.US_ASCII); // stop 49
        WitnessedBlocks old = WitnessedBlocks.parse(beforeCarried, "test");
        assertThat(old.carried()).isEqualTo(Long.MIN_VALUE);
        assertThat(old.twice()).isFalse();
        assertThatThrownBy(() -> WitnessedBlocks.parse("100 0 0 3".getBytes(StandardCharsets.US_ASCII), "node"))
                .isInstanceOf(WitnessException.class).hasMessageContaining("node");
    }
}
