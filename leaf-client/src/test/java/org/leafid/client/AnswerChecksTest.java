package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The checks' rules on their own: what they accept is as important as what they refuse. */
class AnswerChecksTest {

    @Test
    void snowflakeAnswersToTwoRequestsInFlightAreAcceptedInEitherOrderButNeverWhenTheyOverlap() throws Exception {
        AtomicLong served = new AtomicLong();
        SnowflakeAnswerCheck check = new SnowflakeAnswerCheck(served::get);
        AnswerCheck.Judge first = check.before("http://a");
        AnswerCheck.Judge second = check.before("http://a");
        second.accept(ids(201, 202));
        assertThatCode(() -> first.accept(ids(101, 102))).as("a later answer overtaken")
                .doesNotThrowAnyException();

        // Two more in flight, both judged against the same floor, each starting at the other's last ID.
        AnswerCheck.Judge third = check.before("http://a");
        AnswerCheck.Judge fourth = check.before("http://a");
        fourth.accept(ids(400, 401));
        assertThatThrownBy(() -> third.accept(ids(300, 400)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "repeated"));
    }

    @Test
    void aSnowflakeFloorIsTheLargestServedWhicheverServerAnswers() {
        AtomicLong served = new AtomicLong(1_000);
        SnowflakeAnswerCheck check = new SnowflakeAnswerCheck(served::get);
        assertThatThrownBy(() -> check.before("http://b").accept(ids(900, 1_000)))
                .as("another server replaying what was served").isInstanceOfSatisfying(BadAnswerException.class,
                        e -> checkIs(e, "behind"));
        assertThatCode(() -> check.before("http://b").accept(ids(999, 1_001)))
                .as("a server whose IDs interleave with the last one's: served from above the mark")
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://c").accept(ids(1_001, 1_002)))
                .as("a replay of an answer accepted from another server")
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "repeated"));
    }

    @Test
    void aShardAnswerRepeatingAnyOfTheRecentAnswersIsRefusedNotOnlyThePreviousOne() throws Exception {
        ShardAnswerCheck check = new ShardAnswerCheck(56, 5);
        long[] x = {9L << 14 | 5 << 8 | 56, 10L << 14 | 5 << 8 | 56};
        long[] y = {20L << 14 | 5 << 8 | 56, 21L << 14 | 5 << 8 | 56};
        check.before("http://a").accept(AnswerIds.of(x));
        check.before("http://a").accept(AnswerIds.of(y));
        assertThatThrownBy(() -> check.before("http://b").accept(AnswerIds.of(x.clone())))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "repeated"));
    }

    @Test
    void aSegmentAnswerStartingBelowWhatWasServedPassesWhenItReachesAboveAndIsBehindWhenNot() {
        AtomicLong served = new AtomicLong(1_000);
        SegmentAnswerCheck check = new SegmentAnswerCheck(served::get);
        assertThatCode(() -> check.before("http://a").accept(ids(999, 1_000, 1_001)))
                .as("a server on an older block after a failover").doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://a").accept(ids(999, 1_000)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "behind"));
        assertThatThrownBy(() -> check.before("http://a").accept(ids(2_000, 2_000)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "increasing"));
    }

    @Test
    void aSegmentAnswerAsOneRunIsJudgedAsItsIdsWouldBe() throws Exception {
        AtomicLong served = new AtomicLong(1_000);
        SegmentAnswerCheck check = new SegmentAnswerCheck(served::get);
        assertThatThrownBy(() -> check.before("http://a").accept(AnswerIds.run(901, 100)))
                .as("a run wholly at or below what was served").isInstanceOfSatisfying(BadAnswerException.class,
                        e -> checkIs(e, "behind"));
        check.before("http://a").accept(AnswerIds.run(951, 100)); // 951 to 1,050: reaches above
        assertThatThrownBy(() -> check.before("http://b").accept(AnswerIds.run(1_050, 100)))
                .as("a run sharing its first ID with the last one accepted")
                .isInstanceOfSatisfying(BadAnswerException.class, e -> {
                    checkIs(e, "repeated");
                    assertThat(e.getMessage()).contains("ID 1050 ", "951 to 1050");
                });
        assertThatThrownBy(() -> check.before("http://b").accept(ids(1_049, 1_060, 1_061)))
                .as("IDs one per line inside the run accepted").isInstanceOfSatisfying(BadAnswerException.class,
                        e -> checkIs(e, "repeated"));
        assertThatCode(() -> check.before("http://b").accept(AnswerIds.run(1_051, 100)))
                .as("the run right after it").doesNotThrowAnyException();
    }

    @Test
    void answersSharingAnIdAreFoundWhetherRunsOrArrays() {
        AnswerIds run = AnswerIds.run(100, 50); // 100 to 149
        assertThat(RecentAnswers.firstShared(AnswerIds.run(90, 20), run)).as("90 to 109: 100 at index 10")
                .isEqualTo(10);
        assertThat(RecentAnswers.firstShared(AnswerIds.run(120, 50), run)).as("starts inside").isZero();
        assertThat(RecentAnswers.firstShared(AnswerIds.run(150, 5), run)).as("right after").isEqualTo(-1);
        assertThat(RecentAnswers.firstShared(ids(99, 150, 151), run)).as("around it, sharing no ID").isEqualTo(-1);
        assertThat(RecentAnswers.firstShared(ids(99, 149), run)).as("its last ID").isEqualTo(1);
        assertThat(RecentAnswers.firstShared(run, ids(98, 101))).as("a run against an array").isEqualTo(1);
    }

    @Test
    void aRunIsServedFromAboveTheMarkAsAnArrayOfTheSameIdsIs() {
        long[] array = {11, 12, 13, 14, 15};
        AnswerIds run = AnswerIds.run(11, 5);
        for (long floor : new long[] {0, 10, 11, 13, 14, 15, 99}) {
            assertThat(run.firstAbove(floor)).as("above %d", floor).isEqualTo(AnswerIds.of(array).firstAbove(floor));
        }
        assertThat(run.toArray()).containsExactly(array);
        assertThat(run.last()).isEqualTo(15);
        assertThatThrownBy(() -> AnswerIds.run(Long.MAX_VALUE, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runsAreReadAsTheArrayOfTheirIdsWouldBe() {
        // Three runs with holes between them, as a batch spanning blocks: 11-13, 20, 30-34.
        AnswerIds runs = AnswerIds.runs(new long[] {11, 13, 20, 20, 30, 34}, 3);
        long[] array = {11, 12, 13, 20, 30, 31, 32, 33, 34};
        assertThat(runs.count()).isEqualTo(array.length);
        assertThat(runs.isRun()).isFalse();
        assertThat(runs.isRuns()).isTrue();
        assertThat(runs.toArray()).containsExactly(array);
        for (int i = 0; i < array.length; i++) {
            assertThat(runs.get(i)).as("index %d", i).isEqualTo(array[i]);
            for (int n = 0; i + n <= array.length; n++) {
                long[] copied = new long[n + 1];
                runs.copyTo(i, copied, 1, n);
                assertThat(Arrays.copyOfRange(copied, 1, n + 1)).as("%d from %d", n, i)
                        .containsExactly(Arrays.copyOfRange(array, i, i + n));
            }
        }
        for (long floor : new long[] {0, 10, 11, 12, 13, 14, 19, 20, 21, 29, 30, 33, 34, 99}) {
            assertThat(runs.firstAbove(floor)).as("above %d", floor).isEqualTo(AnswerIds.of(array).firstAbove(floor));
        }
        assertThat(RecentAnswers.firstShared(runs, ids(14, 15, 16, 20))).as("20, at index 3").isEqualTo(3);
        assertThat(RecentAnswers.firstShared(ids(14, 15, 16, 21), runs)).as("only in the holes").isEqualTo(-1);
        assertThat(RecentAnswers.firstShared(AnswerIds.runs(new long[] {14, 19, 21, 29}, 2), runs))
                .as("runs filling the holes").isEqualTo(-1);
        assertThat(RecentAnswers.firstShared(AnswerIds.runs(new long[] {14, 19, 21, 30}, 2), runs))
                .as("runs reaching 30: 30 at index 15 of them").isEqualTo(15);
    }

    @Test
    void runsOutOfOrderOrOverlappingOrTooManyAreRefused() {
        assertThatThrownBy(() -> AnswerIds.runs(new long[] {1, 5, 5, 9}, 2)).as("sharing 5")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnswerIds.runs(new long[] {10, 20, 1, 5}, 2)).as("going back")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnswerIds.runs(new long[] {5, 4}, 1)).as("ending before it starts")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnswerIds.runs(new long[] {0, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L,
                Integer.MAX_VALUE + 1L}, 2)).as("2^31 IDs").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AnswerIds.runs(new long[] {0, Long.MAX_VALUE}, 1)).as("2^63 IDs")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSegmentAnswerOfSeveralRunsIsJudgedAsItsIdsWouldBe() throws Exception {
        SegmentAnswerCheck check = new SegmentAnswerCheck(() -> 100);
        check.before("http://a").accept(AnswerIds.runs(new long[] {91, 110, 201, 250}, 2));
        assertThatThrownBy(() -> check.before("http://b").accept(AnswerIds.runs(new long[] {150, 160, 250, 260}, 2)))
                .as("a second answer sharing 250").isInstanceOfSatisfying(BadAnswerException.class, e -> {
                    checkIs(e, "repeated");
                    assertThat(e.getMessage()).contains("ID 250 ");
                });
        assertThatCode(() -> check.before("http://b").accept(AnswerIds.runs(new long[] {111, 200, 251, 260}, 2)))
                .as("runs in the holes and after").doesNotThrowAnyException();
    }

    @Test
    void aSegmentTagsFirstIdZeroPassesWithTheRestAndAnAnswerOfZeroAloneIsRefused() {
        SegmentAnswerCheck check = new SegmentAnswerCheck(() -> 0);
        assertThatCode(() -> check.before("http://a").accept(ids(0, 1, 2)))
                .as("max_id 0 in leaf_alloc: a real server's first ID is 0").doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://a").accept(ids(0)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "positive"));
    }

    @Test
    void aShardAnswerOfTheRightAppAndShardPassesAndAnyOtherIsRefusedByItsOwnCheck() {
        int shard = 5;
        ShardAnswerCheck check = new ShardAnswerCheck(56, shard);
        long good = 9L << 14 | shard << 8 | 56;
        assertThatCode(() -> check.before("http://a").accept(ids(good))).doesNotThrowAnyException();
        assertThatThrownBy(() -> check.before("http://a").accept(ids(good + 1)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "app"));
        assertThatThrownBy(() -> check.before("http://a").accept(ids(good + (1 << 8))))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "shard"));
        assertThatThrownBy(() -> check.before("http://a").accept(ids(good)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "repeated"));
        assertThatThrownBy(() -> check.before("http://a").accept(ids(0)))
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "positive"));
    }

    @Test
    void recentAnswersKeepTheLastFourAlwaysAndOlderOnesWithinTheirBound() throws Exception {
        RecentAnswers ordered = new RecentAnswers(0);
        for (long first = 1; first <= 501; first += 100) {
            ordered.admit(ids(first, first + 99));
        }
        assertThatThrownBy(() -> ordered.admit(ids(300))).as("the last four are kept")
                .isInstanceOfSatisfying(BadAnswerException.class, e -> checkIs(e, "repeated"));
        assertThatCode(() -> ordered.admit(ids(100))).as("the first two answers are no longer")
                .doesNotThrowAnyException();

        RecentAnswers bounded = new RecentAnswers(4);
        for (long first = 1; first <= 701; first += 100) {
            bounded.admit(ids(first, first + 1));
        }
        // Eight answers of two IDs: the last four, and two more within the bound of four IDs.
        assertThatThrownBy(() -> bounded.admit(ids(201))).isInstanceOf(BadAnswerException.class);
        assertThatCode(() -> bounded.admit(ids(101))).doesNotThrowAnyException();
    }

    private static void checkIs(BadAnswerException e, String check) {
        assertThat(e.check()).isEqualTo(check);
    }

    private static AnswerIds ids(long... ids) {
        return AnswerIds.of(ids);
    }
}
