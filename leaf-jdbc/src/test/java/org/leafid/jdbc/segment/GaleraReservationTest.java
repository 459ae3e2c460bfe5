package org.leafid.jdbc.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.pool.DruidDataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.SqlFailures.TryAgain;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.GaleraCluster;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * Segment blocks reserved on a 3-node MariaDB Galera cluster of the test's own: stores writing
 * through different nodes at once (Galera answers a conflicting commit with a deadlock, which is
 * retried), and a node killed (SIGKILL) under load while stores reach the cluster through a URL that
 * names every node. Every block is collected; none may overlap another.
 */
@Tag("full-fault-suite")
class GaleraReservationTest {

    private static final int STEP = 10;

    @TempDir
    static Path dir;
    private static GaleraCluster cluster;

    private final List<DruidDataSource> pools = new ArrayList<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(6);

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = GaleraCluster.start(dir, 3);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
        pools.forEach(DruidDataSource::close);
    }

    @Test
    void storesWritingToDifferentNodesAtOnceReserveEveryBlockOnce() throws Exception {
        TestDatabase first = TestDatabase.prepare(cluster.url(0), "root", "");
        String tag = first.newTag("galera-nodes", 0, STEP);
        List<LeafAllocRepository> stores = new ArrayList<>();
        for (int node = 0; node < cluster.size(); node++) {
            stores.add(store(TestDatabase.prepare(cluster.url(node), "root", "")));
        }

        AtomicLong refused = new AtomicLong();
        AtomicReference<String> firstRefusal = new AtomicReference<>();
        long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
        List<Future<List<Reserved>>> runs = new ArrayList<>();
        for (int thread = 0; thread < 6; thread++) {
            runs.add(threads.submit(reservationsUntil(stores.get(thread % stores.size()), tag, until, refused,
                    firstRefusal)));
        }
        List<AllocRow> blocks = new ArrayList<>();
        collect(runs).forEach(reserved -> blocks.add(reserved.row()));

        Blocks.assertDisjoint(blocks, STEP);
        // Nothing lost, nothing counted twice: the row moved by exactly the blocks handed out.
        assertThat(first.maxId(tag)).isEqualTo(blocks.size() * (long) STEP);
        assertThat(blocks).hasSizeGreaterThan(100);
        long retried = stores.stream().mapToLong(store -> store.retries().retries(TryAgain.DEADLOCK)).sum();
        System.out.println("[galera] through 3 nodes at once: " + blocks.size() + " blocks, " + retried
                + " conflicting commits retried, " + refused.get() + " reservations refused after "
                + "every retry (first: " + firstRefusal.get() + ")");
    }

    @Test
    void aNodeKilledUnderLoadRepeatsNoBlock() throws Exception {
        TestDatabase everyNode = TestDatabase.prepare(cluster.multiHostUrl(), "root", "");
        String tag = everyNode.newTag("galera-kill", 0, STEP);
        LeafAllocRepository throughTheList = store(everyNode);
        LeafAllocRepository onTheSecondNode = store(TestDatabase.prepare(cluster.url(1), "root", ""));
        AtomicLong failures = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        long until = System.nanoTime() + Duration.ofSeconds(12).toNanos();

        List<Future<List<Reserved>>> listRuns = new ArrayList<>();
        List<Future<List<Reserved>>> nodeRuns = new ArrayList<>();
        for (int thread = 0; thread < 2; thread++) {
            listRuns.add(threads.submit(reservationsUntil(throughTheList, tag, until, failures, firstFailure)));
            nodeRuns.add(threads.submit(reservationsUntil(onTheSecondNode, tag, until, failures, firstFailure)));
        }
        Thread.sleep(3_000);
        long killedAt = System.nanoTime();
        cluster.kill(0); // the node the list names first, where the list's connections are
        List<Reserved> viaTheList = collect(listRuns);
        List<Reserved> viaTheSecondNode = collect(nodeRuns);
        cluster.restart(0);

        List<AllocRow> blocks = new ArrayList<>();
        viaTheList.forEach(reserved -> blocks.add(reserved.row()));
        viaTheSecondNode.forEach(reserved -> blocks.add(reserved.row()));
        System.out.println("[galera] node 1 killed under load: " + blocks.size() + " blocks, " + failures.get()
                + " reservations refused while the cluster moved on (last: " + firstFailure.get() + ")");
        Blocks.assertDisjoint(blocks, STEP);
        assertThat(viaTheList.stream().filter(reserved -> reserved.nanos() > killedAt).count())
                .as("blocks the list's store reserved on another node after the kill").isPositive();
        assertThat(viaTheSecondNode.stream().filter(reserved -> reserved.nanos() > killedAt).count())
                .as("blocks reserved on the second node after the kill").isPositive();
        assertThat(cluster.clusterSize(0)).isEqualTo(3);
    }

    /** A block and when it came back. */
    private record Reserved(long nanos, AllocRow row) {}

    private static List<Reserved> collect(List<Future<List<Reserved>>> runs) throws Exception {
        List<Reserved> all = new ArrayList<>();
        for (Future<List<Reserved>> run : runs) {
            all.addAll(run.get(120, TimeUnit.SECONDS));
        }
        return all;
    }

    private LeafAllocRepository store(TestDatabase database) {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        return new LeafAllocRepository(LeafSqlSessions.create(pool));
    }

    /** Reserves until the deadline; a refused reservation (the node died under it) is counted, not fatal. */
    private static Callable<List<Reserved>> reservationsUntil(LeafAllocRepository store, String tag, long until,
            AtomicLong failures, AtomicReference<String> firstFailure) {
        return () -> {
            List<Reserved> rows = new ArrayList<>();
            while (System.nanoTime() < until) {
                try {
                    AllocRow row = store.reserve(tag, STEP);
                    rows.add(new Reserved(System.nanoTime(), row));
                } catch (SegmentStoreException refused) {
                    failures.incrementAndGet();
                    firstFailure.set(refused.getMessage());
                    Thread.sleep(50);
                }
            }
            return rows;
        };
    }
}
