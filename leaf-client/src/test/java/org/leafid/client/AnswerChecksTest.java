package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The checks' rules on their own: what they accept is as important as what they refuse. */
class AnswerChecksTest {

    @Test
    void snowflakeAnswersToTwoRequestsInFlightAreAcceptedInEitherOrderButALaterRequestMustGoHigher()
            throws Exception {
        SnowflakeAnswerCheck check = new SnowflakeAnswerCheck();
        AnswerCheck.Judge first = check.before("http://a");
        AnswerCheck.Judge second = check.before("http://a");
        second.accept(new long[] {201, 202});
        assertThatCode(() -> first.accept(new long[] {101, 102})).doesNotThrowAnyException();

        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {150, 300}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "behind"));
        assertThatCode(() -> check.before("http://b").accept(new long[] {150})).as("each server its own order")
                .doesNotThrowAnyException();
    }

    @Test
    void aSegmentAnswerStartingBelowWhatWasServedPassesWhenItReachesAboveAndIsBehindWhenNot() {
        AtomicLong served = new AtomicLong(1_000);
        SegmentAnswerCheck check = new SegmentAnswerCheck(served::get);
        assertThatCode(() -> check.before("http://a").accept(new long[] {999, 1_000, 1_001}))
                .as("a server on an older block after a failover").doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {999, 1_000}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "behind"));
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {2_000, 2_000}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "increasing"));
    }

    @Test
    void aSegmentTagsFirstIdZeroPassesWithTheRestAndAnAnswerOfZeroAloneIsRefused() {
        SegmentAnswerCheck check = new SegmentAnswerCheck(() -> 0);
        assertThatCode(() -> check.before("http://a").accept(new long[] {0, 1, 2}))
                .as("max_id 0 in leaf_alloc: a real server's first ID is 0").doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {0}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "positive"));
    }

    @Test
    void aShardAnswerOfTheRightAppAndShardPassesAndAnyOtherIsRefusedByItsOwnCheck() {
        int shard = 5;
        ShardAnswerCheck check = new ShardAnswerCheck(56, shard);
        long good = 9L << 14 | shard << 8 | 56;
        assertThatCode(() -> check.before("http://a").accept(new long[] {good})).doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {good + 1}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "app"));
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {good + (1 << 8)}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "shard"));
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {good}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "repeated"));
        assertThatThrownBy(() -> check.before("http://a").accept(new long[] {0}))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "positive"));
    }

    private static void checkIs(BadAnswerException e, String check) {
        assertThat(e.check()).isEqualTo(check);
    }
}
