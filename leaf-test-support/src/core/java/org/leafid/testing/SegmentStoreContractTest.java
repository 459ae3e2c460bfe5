package org.leafid.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;

/**
 * What every {@link SegmentStore} must do, whatever keeps the rows. A backend's test extends
 * this and says how to reach its store and edit its rows. Tags are unique per test, so a
 * shared database needs no cleanup between tests. Test methods are public so that subclasses
 * in other packages inherit them.
 */
public abstract class SegmentStoreContractTest {

    private static final AtomicInteger TAGS = new AtomicInteger();
    private static final String RUN = Long.toString(System.nanoTime(), 36);

    /** The store under test; the same rows as {@link #insert} and friends edit. */
    protected abstract SegmentStore store();

    /** Inserts a {@code leaf_alloc} row. */
    protected abstract void insert(String tag, long maxId, int step);

    /** Deletes the row of {@code tag}. */
    protected abstract void delete(String tag);

    /** Edits the row's step, as an operator would. */
    protected abstract void updateStep(String tag, int step);

    @Test
    public void reservationAdvancesMaxIdByTheRowStepAndReturnsTheRowAfter() {
        String tag = newTag("step");
        insert(tag, 1, 100);

        assertThat(store().reserve(tag, 1)).isEqualTo(new AllocRow(tag, 101, 100));
        assertThat(store().reserve(tag, 1)).isEqualTo(new AllocRow(tag, 201, 100));
    }

    @Test
    public void largerRequestedStepWinsAndTheRowStepStaysTheMinimum() {
        String tag = newTag("requested");
        insert(tag, 1, 100);

        assertThat(store().reserve(tag, 250)).isEqualTo(new AllocRow(tag, 251, 100));
        assertThat(store().reserve(tag, 50)).isEqualTo(new AllocRow(tag, 351, 100));
    }

    @Test
    public void editedRowStepAppliesFromTheNextReservation() {
        String tag = newTag("edited");
        insert(tag, 1, 100);
        store().reserve(tag, 1);

        updateStep(tag, 500);

        assertThat(store().reserve(tag, 1)).isEqualTo(new AllocRow(tag, 601, 500));
    }

    @Test
    public void reservationReachingLongMaxExactlyIsGrantedAndIsTheLast() {
        String tag = newTag("edge");
        insert(tag, Long.MAX_VALUE - 10, 10);

        assertThat(store().reserve(tag, 1).maxId()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> store().reserve(tag, 1)).isInstanceOf(TagExhaustedException.class);
    }

    @Test
    public void reservationPassingLongMaxIsRefusedAndChangesNothing() {
        String tag = newTag("overflow");
        insert(tag, Long.MAX_VALUE - 5, 10);

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> store().reserve(tag, 1))
                    .isInstanceOf(TagExhaustedException.class)
                    .hasMessageContaining(tag)
                    .satisfies(e -> {
                        TagExhaustedException exhausted = (TagExhaustedException) e;
                        assertThat(exhausted.tag()).isEqualTo(tag);
                        // Still the old max_id on the second attempt: the first changed nothing.
                        assertThat(exhausted.maxId()).isEqualTo(Long.MAX_VALUE - 5);
                    });
        }
    }

    @Test
    public void requestedStepBelowOneIsRejectedAndChangesNothing() {
        String tag = newTag("below-one");
        insert(tag, 1, 10);

        assertThatThrownBy(() -> store().reserve(tag, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestedStep must be at least 1: 0");
        assertThat(store().reserve(tag, 1)).isEqualTo(new AllocRow(tag, 11, 10));
    }

    @Test
    public void tagWithoutARowIsUnknown() {
        String tag = newTag("missing");

        assertThatThrownBy(() -> store().reserve(tag, 1))
                .isInstanceOf(UnknownTagException.class)
                .satisfies(e -> assertThat(((UnknownTagException) e).tag()).isEqualTo(tag));
    }

    @Test
    public void deletedRowIsUnknownAndNoLongerListed() {
        String tag = newTag("deleted");
        insert(tag, 1, 10);
        assertThat(store().tags()).contains(tag);

        delete(tag);

        assertThat(store().tags()).doesNotContain(tag);
        assertThatThrownBy(() -> store().reserve(tag, 1)).isInstanceOf(UnknownTagException.class);
    }

    @Test
    public void tagsListsEveryRow() {
        String first = newTag("listed");
        String second = newTag("listed");
        insert(first, 1, 10);
        insert(second, 1, 10);

        assertThat(store().tags()).contains(first, second);
    }

    @Test
    public void concurrentReservationsNeverOverlap() throws Exception {
        String tag = newTag("concurrent");
        int step = 10;
        insert(tag, 1, step);
        int threads = 8;
        int perThread = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch startGate = new CountDownLatch(1);
        List<Long> ends = new ArrayList<>();
        try {
            List<Future<List<Long>>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    startGate.await();
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        mine.add(store().reserve(tag, 1).maxId());
                    }
                    return mine;
                }));
            }
            startGate.countDown();
            for (Future<List<Long>> worker : workers) {
                ends.addAll(worker.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        // Each reservation saw its own row state: the block ends are exactly 11, 21, ..., 1 + 400 * 10.
        Set<Long> distinct = new HashSet<>(ends);
        assertThat(distinct).hasSize(threads * perThread);
        assertThat(ends.stream().mapToLong(Long::longValue).max().orElseThrow())
                .isEqualTo(1 + (long) threads * perThread * step);
        assertThat(ends).allSatisfy(end -> assertThat((end - 1) % step).isZero());
    }

    /** A tag no other test (or earlier run on a shared database) uses; fits leaf_alloc's 128 chars. */
    protected String newTag(String name) {
        return "contract-" + name + "-" + RUN + "-" + TAGS.incrementAndGet();
    }
}
