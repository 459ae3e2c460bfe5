package org.leafid.server.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.leafid.core.snowflake.SnowflakeLayout;

/** What every scenario shares: the run's id, its processes, its database, and common checks. */
final class FaultContext {

    static final SnowflakeLayout LAYOUT = new SnowflakeLayout(SnowflakeLayout.DEFAULT_TWEPOCH);

    final String runId;
    final Fleet fleet;
    final FaultDatabase database;

    FaultContext(String runId, Fleet fleet, FaultDatabase database) {
        this.runId = runId;
        this.fleet = fleet;
        this.database = database;
    }

    /** The same run for one scenario (or one group of scenarios): its servers in a {@link Fleet#scope()}. */
    FaultContext scope() {
        return new FaultContext(runId, fleet.scope(), database);
    }

    /** A tag no other run uses, inserted with the given first ID and step. */
    String newTag(String scenario, long maxId, int step) {
        String tag = "fault-" + runId + "-" + scenario;
        database.insertTag(tag, maxId, step);
        return tag;
    }

    /** Arguments every server of a scenario gets: its own leaf.name, and 127.0.0.1 as its IP. */
    List<String> baseArguments(String scenario, String... more) {
        List<String> arguments = new ArrayList<>(List.of("--leaf.name=fault-" + runId + "-" + scenario,
                "--leaf.snowflake.ip=127.0.0.1"));
        arguments.addAll(Arrays.asList(more));
        return arguments;
    }

    /** A part of a scenario that runs beside the others: one mode's pair of processes, say. */
    @FunctionalInterface
    interface Part<T> {
        T run() throws Exception;
    }

    /**
     * Runs independent parts of a scenario at once and returns their results in the parts' order.
     * For parts that mostly wait on a clock of their own (a lease, a session, a takeover): one after
     * another they would add those waits up. Waits for every part, then throws the first failure
     * with the others attached, so no process or thread of a failed part outlives the scenario.
     */
    static <T> List<T> concurrently(List<Part<T>> parts) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(parts.size());
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (Part<T> part : parts) {
                futures.add(threads.submit(part::run));
            }
            List<T> results = new ArrayList<>();
            Throwable failure = null;
            for (Future<T> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                    } else {
                        failure.addSuppressed(e.getCause());
                    }
                }
            }
            if (failure instanceof Error error) {
                throw error; // an assertion of a part: the scenario's failure as the part stated it
            }
            if (failure != null) {
                throw (Exception) failure;
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /** How long a load may take to give the IDs {@link #holdFor} waits for before the scenario fails. */
    static final Duration HOLD_BOUND = Duration.ofSeconds(90);

    /**
     * Keeps a fault going for a while: the fault's own clock (an outage, a lease, a pause), not a
     * wait for load. A load before or after a fault ends on a count instead ({@link #holdFor}).
     */
    static void hold(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    /**
     * Keeps the load running until its clients got {@code ids} more IDs: a scenario ends on a count,
     * so a quick machine is not held to a slow one's timer and a slow one still checks as many IDs.
     * Fails when the load gives fewer within {@link #HOLD_BOUND}: a load that stalls is a finding.
     */
    static void holdFor(LoadRun load, long ids) throws InterruptedException {
        long target = load.idsSoFar() + ids;
        long deadline = System.nanoTime() + HOLD_BOUND.toNanos();
        while (load.idsSoFar() < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the load gave " + (ids - (target - load.idsSoFar())) + " of " + ids
                        + " IDs within " + HOLD_BOUND.toSeconds() + " s");
            }
            Thread.sleep(5);
        }
    }

    /** The clients' IDs of one mode (and tag, for segment), all runs together. */
    static long[] ids(List<LoadSummary> runs, LoadRun.Mode mode, Predicate<LoadRun.ClientSpec> which) {
        List<LongList> lists = new ArrayList<>();
        for (LoadSummary run : runs) {
            run.clients().stream().filter(c -> which.test(c.spec())).forEach(c -> lists.add(c.ids(mode)));
        }
        return LongList.concat(lists);
    }

    /** Clients whose IDs of a mode did not strictly increase, as "client: a then b". */
    static List<String> notIncreasing(LoadSummary run, LoadRun.Mode mode) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < run.clients().size(); i++) {
            LongList ids = run.clients().get(i).ids(mode);
            int at = IdChecks.firstNotIncreasing(ids);
            if (at >= 0) {
                problems.add(run.clients().get(i).spec().instance() + " client " + i + ": " + ids.get(at - 1)
                        + " then " + ids.get(at));
            }
        }
        return problems;
    }

    /** The distinct worker ids in snowflake IDs. */
    static List<Integer> workerIds(long[] snowflakeIds) {
        return Arrays.stream(snowflakeIds).mapToInt(id -> LAYOUT.decode(id).workerId()).distinct().sorted().boxed()
                .toList();
    }

    /**
     * Errors that are not allowed: a key is allowed when it equals one of {@code allowed}, or
     * starts with one that ends in {@code *} (without the star).
     */
    static Map<String, Long> unexpected(Map<String, Long> errors, String... allowed) {
        return errors.entrySet().stream()
                .filter(e -> Arrays.stream(allowed).noneMatch(a -> a.endsWith("*")
                        ? e.getKey().startsWith(a.substring(0, a.length() - 1)) : e.getKey().equals(a)))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum, TreeMap::new));
    }
}
