package org.leafid.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.core.testing.InMemoryShardStore;

class ShardIdGeneratorTest {

    private static final OpaquePermutation KEY = OpaquePermutation.fromKeyText("000102030405060708090a0b0c0d0e0f");

    private final InMemoryShardStore store = new InMemoryShardStore();
    private final ShardAppDirectory directory = new ShardAppDirectory(store);
    private MemoryShardIndexSource source;

    private ShardIdGenerator generator(OpaquePermutation opaque) {
        source = new MemoryShardIndexSource(store, new FakeClock(0), Runnable::run, Duration.ofSeconds(5));
        refresh();
        return new ShardIdGenerator(directory::app, source, opaque);
    }

    private void refresh() {
        directory.update(source.refresh());
    }

    @Test
    void aGatePassPutsEveryIdOfTheUserInItsShard() {
        store.createApp(7, "orders", 100, 0);
        ShardIdGenerator generator = generator(null);
        int shard = ShardId.shardOf("alice@example.com");
        for (long expectedIndex = 1; expectedIndex <= 150; expectedIndex++) {
            ShardId id = ShardId.decode(generator.nextId(7, "alice@example.com"));
            assertThat(id.appId()).isEqualTo(7);
            assertThat(id.shardId()).isEqualTo(shard);
            assertThat(id.index()).isEqualTo(expectedIndex);
            assertThat(generator.issuedIndex(id.id())).isEqualTo(expectedIndex);
        }
        assertThat(ShardId.decode(generator.nextId(7, "polygenelubricants")).shardId()).isZero();
    }

    @Test
    void withoutAGatePassTheShardsTakeTurns() {
        store.createApp(3, "events", 10, 0, 4, 9, 63);
        ShardIdGenerator generator = generator(null);
        int[] shards = new int[6];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = ShardId.decode(generator.nextId(3, null)).shardId();
        }
        assertThat(shards).containsExactly(4, 9, 63, 4, 9, 63);
        long[] batch = generator.nextIds(3, null, 3);
        assertThat(Arrays.stream(batch).map(id -> ShardId.decode(id).shardId())).containsOnly(4L);
    }

    @Test
    void badInputsAreNamed() {
        store.createApp(3, "events", 10, 0, 0, 1);
        ShardIdGenerator generator = generator(null);
        assertThatThrownBy(() -> generator.nextId(4, null)).isInstanceOf(UnknownAppException.class);
        int missing = ShardId.shardOf("bob");
        assertThat(missing).isGreaterThan(1);
        assertThatThrownBy(() -> generator.nextId(3, "bob")).isInstanceOf(UnknownShardException.class);
        assertThatThrownBy(() -> generator.nextId(3, "b".repeat(257)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 256");
        assertThatThrownBy(() -> generator.nextId(256, null)).hasMessageContaining("app id must be 0..255");
        assertThatThrownBy(() -> generator.nextIds(3, null, 0)).hasMessageContaining("count must be at least 1");
    }

    @Test
    void aSpentShardIsRefusedWithoutReservingAnotherBlock() {
        int shard = ShardId.shardOf("alice");
        // Step 1: every index is a reservation; the limit leaves indexes 1..2 in every shard.
        store.createApp(5, "tiny", 1, 3L << ShardId.INDEX_SHIFT);
        ShardIdGenerator generator = generator(null);
        generator.nextId(5, "alice");
        generator.nextId(5, "alice");
        assertThatThrownBy(() -> generator.nextId(5, "alice")).isInstanceOf(AppLimitReachedException.class);
        long maxIdWhenSpent = store.maxId(5, shard);
        int reservationsWhenSpent = store.reservations();

        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(() -> generator.nextId(5, "alice")).isInstanceOf(AppLimitReachedException.class);
            assertThatThrownBy(() -> generator.nextIds(5, "alice", 3)).isInstanceOf(AppLimitReachedException.class);
        }
        assertThat(store.maxId(5, shard)).isEqualTo(maxIdWhenSpent);
        assertThat(store.reservations()).isEqualTo(reservationsWhenSpent);
    }

    @Test
    void aShardAtItsLimitRefusesEveryCallAndNeverWraps() {
        assertLimitHolds(null);
    }

    @Test
    void anOpaqueShardAtItsLimitRefusesEveryCallAndNeverWrapsEither() {
        assertLimitHolds(KEY);
    }

    private void assertLimitHolds(OpaquePermutation opaque) {
        long limit = (40L << 14) + 1; // 40 indexes for shard 0 of app 0, 39 for every other (app, shard)
        store.createApp(5, "small", 7, limit);
        ShardIdGenerator generator = generator(opaque);
        int shard = ShardId.shardOf("carol");
        long max = new ShardLimit(5, limit).maxIndex(shard);
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < max; i++) {
            long id = generator.nextId(5, "carol");
            assertThat(id).isLessThan(limit);
            assertThat(ids.add(id)).isTrue();
        }
        assertThat(ids).extracting(id -> ShardId.decode(id).index()).containsExactlyInAnyOrderElementsOf(
                java.util.stream.LongStream.rangeClosed(1, max).boxed().toList());
        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> generator.nextId(5, "carol"))
                    .isInstanceOf(AppLimitReachedException.class)
                    .hasMessageContaining("never wrapped");
        }
        assertThatThrownBy(() -> generator.nextIds(5, "carol", 3)).isInstanceOf(AppLimitReachedException.class);
    }

    @Test
    void roundRobinDrainsEveryShardToItsLimitThenRefuses() {
        long limit = 10L << 14; // 9 indexes per shard for app 2 (shard 0 included: its low bits are not 0)
        store.createApp(2, "tiny", 4, limit);
        ShardIdGenerator generator = generator(KEY);
        Set<Long> ids = new HashSet<>();
        // Mixed single calls and batches: a batch that meets a spent shard goes on in the next.
        while (true) {
            try {
                for (long id : ids.size() % 2 == 0 ? generator.nextIds(2, null, 5) : new long[] {
                        generator.nextId(2, null)}) {
                    assertThat(id).isLessThan(limit);
                    assertThat(ids.add(id)).as("repeat %d", id).isTrue();
                }
            } catch (AppLimitReachedException e) {
                break;
            }
        }
        // Every index below the limit is issued (a refused batch spends what it took, at most 4 here).
        assertThat(ids.size()).isBetween(64 * 9 - 4, 64 * 9);
        assertThatThrownBy(() -> generator.nextId(2, null)).isInstanceOf(AppLimitReachedException.class);
    }

    @Test
    void aRaisedLimitServesTheSpentShardsAgainWithoutARepeat() {
        store.createApp(2, "tiny", 4, 3L << 14); // 2 indexes per shard
        ShardIdGenerator generator = generator(null);
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 64 * 2; i++) {
            assertThat(ids.add(generator.nextId(2, null))).isTrue();
        }
        assertThatThrownBy(() -> generator.nextId(2, null)).isInstanceOf(AppLimitReachedException.class);
        store.setMaxLimitId(2, 6L << 14); // 5 per shard; without a key only: a key's range is the limit
        refresh();
        for (int i = 0; i < 64; i++) {
            long id = generator.nextId(2, null);
            assertThat(id).isLessThan(6L << 14);
            assertThat(ids.add(id)).as("repeat %d", id).isTrue();
        }
    }

    @Test
    void opaqueIdsKeepShardAndAppBitsAndOnlyTheKeyRevealsTheIndex() {
        store.createApp(9, "secret", 50, 1L << 32);
        ShardIdGenerator generator = generator(KEY);
        assertThat(generator.opaque()).isTrue();
        int shard = ShardId.shardOf("dave");
        long previous = -1;
        int farApart = 0;
        for (long i = 1; i <= 200; i++) {
            long id = generator.nextId(9, "dave");
            ShardId parts = ShardId.decode(id);
            assertThat(parts.appId()).isEqualTo(9);
            assertThat(parts.shardId()).isEqualTo(shard);
            assertThat(id).isLessThan(1L << 32);
            assertThat(generator.issuedIndex(id)).isEqualTo(i);
            if (previous >= 0 && Math.abs(parts.index() - previous) > 262_143 / 1000) {
                farApart++;
            }
            previous = parts.index();
        }
        assertThat(farApart).isGreaterThan(190);
    }
}
