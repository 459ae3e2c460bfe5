package org.leafid.jdbc.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.Sleeper;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.ResetPeriod;
import org.leafid.core.format.SegmentPeriodSequences;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentLoadListener;
import org.leafid.core.segment.SegmentSettings;
import org.leafid.core.segment.StepPolicy;
import org.leafid.jdbc.reservation.StoreIdentityGuard;
import org.leafid.jdbc.segment.LeafAllocRepository;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * A daily order number on two servers of one database (MariaDB, PostgreSQL), through a midnight:
 * each server's clock is the real one moved to a few seconds before midnight in the format's zone,
 * the second's three seconds ahead of the first's, so for three seconds they issue from different
 * days. Under load from both, every string is unique, has the pattern's length, each day's numbers
 * start at 1, and the first string after midnight costs no database round trip (the next day's row
 * and block are prepared in the last minute; each server's timer ends the day, as the server's does):
 * the latency of the first second of the new day is reported beside that of the whole run.
 */
class FormatAcrossMidnightTest {

    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    private static final String PATTERN = "ORD{yyyy}{MM}{dd}{seq:6}{check}";
    private static final Duration BEFORE_MIDNIGHT = Duration.ofSeconds(8);
    private static final Duration RUN = Duration.ofSeconds(16);
    private static final long SECOND_SERVER_AHEAD_MILLIS = 3_000;

    @ParameterizedTest
    @ValueSource(strings = {"mariadb", "postgresql"})
    void twoServersWithClocksApartIssueEachDayFromOneAndRepeatNothing(String kind) throws Exception {
        TestDatabase database = kind.equals("postgresql") ? TestDatabase.postgres() : TestDatabase.get();
        String tag = "midnight-" + Long.toString(System.nanoTime(), 36);
        long now = System.currentTimeMillis();
        ZonedDateTime midnight = Instant.ofEpochMilli(now).atZone(ZONE).plusDays(1).toLocalDate().atStartOfDay(ZONE);
        long offset = midnight.toInstant().toEpochMilli() - BEFORE_MIDNIGHT.toMillis() - now;
        List<DruidDataSource> pools = new ArrayList<>();
        List<ThreadPoolExecutor> loaders = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(1);
        ConcurrentLinkedQueue<Issued> issued = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        List<FormattedIdGenerator> orders = new ArrayList<>();
        try {
            List<Future<?>> load = new ArrayList<>();
            for (int server = 0; server < 2; server++) {
                long serverOffset = offset + server * SECOND_SERVER_AHEAD_MILLIS;
                InstantSource clock = () -> Instant.ofEpochMilli(System.currentTimeMillis() + serverOffset);
                DruidDataSource pool = database.newPool();
                pools.add(pool);
                ThreadPoolExecutor loader = (ThreadPoolExecutor) Executors.newFixedThreadPool(2);
                loaders.add(loader);
                var sessions = LeafSqlSessions.create(pool);
                LeafAllocRepository table = new LeafAllocRepository(sessions, Sleeper.system(),
                        new StoreIdentityGuard(sessions, StoreIdentityGuard.DEFAULT_SKIP_BLOCKS));
                SegmentAllocator allocator = new SegmentAllocator(table, new SegmentSettings(
                        new StepPolicy(100_000, Duration.ofMinutes(15)), Duration.ofSeconds(2), SegmentLoadListener.NONE),
                        clock, loader);
                allocator.refresh();
                FormattedIdGenerator order = new FormattedIdGenerator("order", FormatPattern.parse(PATTERN),
                        ResetPeriod.DAILY, ZONE, new SegmentPeriodSequences("order", tag, 100, allocator, table, loader),
                        clock, Duration.ofMinutes(1), (at, task) -> timers.schedule(task,
                                Math.max(0, at - clock.millis()), TimeUnit.MILLISECONDS));
                orders.add(order);
                int serverIndex = server;
                for (int t = 0; t < 4; t++) {
                    load.add(clients.submit(() -> {
                        while (running.get()) {
                            long started = System.nanoTime();
                            String value = order.next();
                            issued.add(new Issued(serverIndex, value, System.nanoTime() - started,
                                    clock.millis() - midnight.toInstant().toEpochMilli()));
                            if (issued.size() % 20 == 0) {
                                Thread.sleep(1); // a client's pace
                            }
                        }
                        return null;
                    }));
                }
            }
            Thread.sleep(RUN.toMillis());
            running.set(false);
            for (Future<?> client : load) {
                client.get(30, TimeUnit.SECONDS);
            }
        } finally {
            running.set(false);
            clients.shutdownNow();
            timers.shutdownNow();
            loaders.forEach(ThreadPoolExecutor::shutdownNow);
            pools.forEach(DruidDataSource::close);
        }

        FormatPattern pattern = FormatPattern.parse(PATTERN);
        Set<String> distinct = new HashSet<>();
        Map<String, Long> lowestByDay = new HashMap<>();
        List<Long> latencies = new ArrayList<>();
        List<Long> firstSecond = new ArrayList<>();
        long firstAfterMidnight = -1;
        for (Issued one : issued) {
            assertThat(one.value()).hasSize(pattern.length());
            assertThat(distinct.add(one.value())).as("%s issued twice", one.value()).isTrue();
            FormatPattern.Decoded decoded = pattern.decode(one.value(), ResetPeriod.DAILY);
            lowestByDay.merge(decoded.period(), decoded.sequence(), Math::min);
            latencies.add(one.nanos());
            if (one.sinceMidnightMillis() >= 0 && one.sinceMidnightMillis() < 1_000) {
                firstSecond.add(one.nanos());
            }
            if (decoded.sequence() == 1 && one.sinceMidnightMillis() >= 0) {
                firstAfterMidnight = one.nanos();
            }
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        long p99 = sorted[(int) (sorted.length * 0.99)];
        long p999 = sorted[(int) (sorted.length * 0.999)];
        long[] afterMidnight = firstSecond.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("[format midnight %s] %,d strings, days %s, latency p50 %d us, p99 %d us, p99.9 %d us,"
                + " max %d us; in each server's first second of the new day (%,d strings) p50 %d us, p99 %d us;"
                + " the new day's first string %d us%n", kind, issued.size(), lowestByDay,
                sorted[sorted.length / 2] / 1000, p99 / 1000, p999 / 1000, sorted[sorted.length - 1] / 1000,
                afterMidnight.length, afterMidnight[afterMidnight.length / 2] / 1000,
                afterMidnight[(int) (afterMidnight.length * 0.99)] / 1000, firstAfterMidnight / 1000);
        assertThat(lowestByDay).as("each day's lowest number").hasSize(2).allSatisfy((day, lowest) ->
                assertThat(lowest).as(day).isEqualTo(1));
        assertThat(issued.stream().filter(one -> one.server() == 1 && one.sinceMidnightMillis() >= 0))
                .as("strings of the new day").isNotEmpty();
        assertThat(Arrays.asList(issued.stream().map(Issued::server).distinct().toArray())).containsOnly(0, 1);
        assertThat(issued.size()).as("strings issued").isGreaterThan(10_000);
        assertThat(orders.stream().mapToLong(FormattedIdGenerator::issuedCount).sum())
                .as("strings counted by the servers (leaf_ids_issued_total)").isEqualTo(issued.size());
    }

    private record Issued(int server, String value, long nanos, long sinceMidnightMillis) {}
}
