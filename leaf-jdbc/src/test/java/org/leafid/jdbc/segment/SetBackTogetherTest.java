package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.StepPolicy;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The hole the high-water mark alone leaves: {@code max_id} set back together with its
 * {@code leaf_high_water} row, in one transaction, again and again while a generator serves under
 * load (an operator "repairing" both; a restore or a failover does the same to both at once). The
 * generator remembers what it reserved, so none of its IDs repeats, on MariaDB and on PostgreSQL.
 */
class SetBackTogetherTest {

    private static final int STEP = 100;

    @Test
    @Timeout(120)
    void onMariaDbNoIdIsServedTwice() throws Exception {
        servesNoIdTwiceWhileSetBack(TestDatabase.get());
    }

    @Test
    @Timeout(120)
    void onPostgresNoIdIsServedTwice() throws Exception {
        servesNoIdTwiceWhileSetBack(TestDatabase.postgres());
    }

    private static void servesNoIdTwiceWhileSetBack(TestDatabase database) throws Exception {
        String tag = database.newTag("set-back", 0, STEP);
        ExecutorService loader = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(4);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger setBacks = new AtomicInteger();
        ConcurrentLinkedQueue<long[]> taken = new ConcurrentLinkedQueue<>();
        try (DruidDataSource pool = database.newPool()) {
            SegmentIdGenerator generator = new SegmentIdGenerator(tag, new LeafAllocRepository(
                    LeafSqlSessions.create(pool)), new StepPolicy(STEP, Duration.ofMinutes(15)),
                    InstantSource.system(), loader, Duration.ofSeconds(10));
            Future<?> operator = callers.submit(() -> {
                while (running.get()) {
                    database.setBackWithMark(tag, 5L * STEP);
                    setBacks.incrementAndGet();
                    Thread.sleep(20);
                }
                return null;
            });
            List<Future<?>> workers = IntStream.range(0, 3).<Future<?>>mapToObj(t -> callers.submit(() -> {
                long[] ids = new long[30_000];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = generator.nextId();
                }
                taken.add(ids);
                return null;
            })).toList();
            for (Future<?> worker : workers) {
                worker.get(100, TimeUnit.SECONDS);
            }
            running.set(false);
            operator.get(10, TimeUnit.SECONDS);
        } finally {
            callers.shutdownNow();
            loader.shutdownNow();
        }

        Set<Long> unique = new HashSet<>();
        long repeats = taken.stream().flatMapToLong(Arrays::stream).filter(id -> !unique.add(id)).count();
        assertThat(setBacks.get()).as("times the row and its mark were set back").isGreaterThan(3);
        assertThat(repeats).as("IDs served twice").isZero();
        assertThat(unique).hasSize(90_000);
    }
}
