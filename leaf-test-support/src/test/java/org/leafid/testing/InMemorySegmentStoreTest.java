package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;

/** The in-memory store keeps the SPI contract, so tests built on it say something about SQL stores too. */
class InMemorySegmentStoreTest extends SegmentStoreContractTest {

    private final InMemorySegmentStore store = new InMemorySegmentStore();

    @Override
    protected SegmentStore store() {
        return store;
    }

    @Override
    protected void insert(String tag, long maxId, int step) {
        store.put(tag, maxId, step);
    }

    @Override
    protected void delete(String tag) {
        store.remove(tag);
    }

    @Override
    protected void updateStep(String tag, int step) {
        store.setStep(tag, step);
    }

    @Test
    void countsAndSizesWhatItGranted() {
        store.put("t", 1, 10);
        store.reserve("t", 1);
        store.reserve("t", 25);

        assertThat(store.reserveCount("t")).isEqualTo(2);
        assertThat(store.reservedSizes("t")).containsExactly(10L, 25L);
        assertThat(store.maxId("t")).isEqualTo(36);
    }

    @Test
    void failingSwitchesThrowTheStoreException() {
        store.put("t", 1, 10);
        store.failReserves(true);
        store.failTags(true);

        assertThatThrownBy(() -> store.reserve("t", 1)).isInstanceOf(SegmentStoreException.class);
        assertThatThrownBy(store::tags).isInstanceOf(SegmentStoreException.class);
        assertThat(store.reserveCount("t")).isZero();
    }

    @Test
    void heldReservationProceedsWhenTheGateOpens() throws Exception {
        store.put("t", 1, 10);
        CountDownLatch gate = new CountDownLatch(1);
        store.holdReservesUntil(gate);

        CompletableFuture<AllocRow> held = CompletableFuture.supplyAsync(() -> store.reserve("t", 1));
        assertThat(store.awaitHeldReserve(Duration.ofSeconds(10))).isTrue();
        assertThat(held).isNotDone();
        gate.countDown();

        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(new AllocRow("t", 11, 10));
    }
}
