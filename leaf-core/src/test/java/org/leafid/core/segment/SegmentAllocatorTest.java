package org.leafid.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leafid.testing.FakeClock;
import org.leafid.testing.InMemorySegmentStore;

class SegmentAllocatorTest {

    private final InMemorySegmentStore store = new InMemorySegmentStore();
    private final ExecutorService loader = Executors.newSingleThreadExecutor();
    private final SegmentAllocator allocator = new SegmentAllocator(store,
            new SegmentSettings(StepPolicy.leafDefault(), Duration.ofSeconds(10)),
            new FakeClock(1_700_000_000_000L), loader);

    @AfterEach
    void stopLoader() {
        loader.shutdownNow();
    }

    @Test
    void noTagIsServedBeforeTheFirstRefresh() {
        store.put("orders", 1, 10);

        assertThat(allocator.tagsLoaded()).isFalse();
        assertThatThrownBy(() -> allocator.nextId("orders")).isInstanceOf(UnknownTagException.class);
    }

    @Test
    void refreshServesEveryTagInTheStore() {
        store.put("orders", 1, 10).put("users", 1_000, 10);

        SegmentAllocator.Refresh refresh = allocator.refresh();

        assertThat(allocator.tagsLoaded()).isTrue();
        assertThat(refresh.added()).containsExactlyInAnyOrder("orders", "users");
        assertThat(refresh.removed()).isEmpty();
        assertThat(allocator.nextId("orders")).isEqualTo(1);
        assertThat(allocator.nextId("users")).isEqualTo(1_000);
        assertThat(allocator.views()).containsOnlyKeys("orders", "users");
        assertThat(allocator.views().keySet()).containsExactly("orders", "users");
    }

    @Test
    void refreshAddsTagsInsertedSinceAndKeepsTheOthersAsTheyAre() {
        store.put("orders", 1, 10);
        allocator.refresh();
        SegmentIdGenerator orders = allocator.generator("orders");
        assertThat(allocator.nextId("orders")).isEqualTo(1);
        store.put("users", 1, 10);

        SegmentAllocator.Refresh refresh = allocator.refresh();

        assertThat(refresh.added()).containsExactly("users");
        assertThat(refresh.removed()).isEmpty();
        // The same buffer keeps serving: no block is thrown away by a refresh.
        assertThat(allocator.generator("orders")).isSameAs(orders);
        assertThat(allocator.nextId("orders")).isEqualTo(2);
        assertThat(allocator.nextId("users")).isEqualTo(1);
    }

    @Test
    void refreshDropsTagsDeletedFromTheStore() {
        store.put("orders", 1, 10).put("users", 1, 10);
        allocator.refresh();
        allocator.nextId("users");
        store.remove("users");

        SegmentAllocator.Refresh refresh = allocator.refresh();

        assertThat(refresh.added()).isEmpty();
        assertThat(refresh.removed()).containsExactly("users");
        assertThatThrownBy(() -> allocator.nextId("users"))
                .isInstanceOf(UnknownTagException.class)
                .satisfies(e -> assertThat(((UnknownTagException) e).tag()).isEqualTo("users"));
        assertThat(allocator.views()).containsOnlyKeys("orders");
    }

    @Test
    void refreshWithNothingChangedReportsNothing() {
        store.put("orders", 1, 10);
        allocator.refresh();

        SegmentAllocator.Refresh refresh = allocator.refresh();

        assertThat(refresh.added()).isEmpty();
        assertThat(refresh.removed()).isEmpty();
    }

    @Test
    void unknownTagIsReported() {
        store.put("orders", 1, 10);
        allocator.refresh();

        assertThatThrownBy(() -> allocator.nextId("nope")).isInstanceOf(UnknownTagException.class);
        assertThatThrownBy(() -> allocator.generator("nope")).isInstanceOf(UnknownTagException.class);
    }

    @Test
    void failedListingKeepsServingTheKnownTags() {
        store.put("orders", 1, 10);
        allocator.refresh();
        store.failTags(true);

        assertThatThrownBy(allocator::refresh)
                .isInstanceOf(SegmentStoreException.class)
                .satisfies(e -> assertThat(((SegmentStoreException) e).tag()).isNull());
        assertThat(allocator.nextId("orders")).isEqualTo(1);
    }
}
