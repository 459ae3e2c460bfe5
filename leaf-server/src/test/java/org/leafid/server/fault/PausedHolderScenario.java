package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.leafid.server.fault.LoadRun.ClientSpec;
import org.leafid.server.fault.LoadRun.Mode;
import org.leafid.testing.RedisSentinelGroup;
import org.leafid.testing.RedisServerProcess;

/**
 * A holder paused past its lease: process A issues snowflake IDs under load, is stopped
 * ({@code SIGSTOP}: a frozen VM, a long GC, a debugger), and while it is stopped process B of the
 * same identity ({@code leaf.snowflake.ip}/{@code port}) takes its worker id once the registry lets
 * it; then A continues ({@code SIGCONT}) under load beside B. A must issue nothing with that id until
 * its registry confirms its lease again, which it never does: B holds the id ({@code redis} gives A
 * another one). Every ID of both is collected and none may repeat. In the {@code mysql},
 * {@code zk_normal} and {@code redis} modes; and {@code redis} behind Sentinel with the master
 * frozen instead of A: the Sentinels promote the replica, B takes the id there once A's lease ran
 * out, and the old master is let go on, believing it is still the master, while A talks to it.
 */
final class PausedHolderScenario {

    private static final int CLIENTS_PER_INSTANCE = 3;
    /** The identity both processes of a mode share; their server ports differ. */
    private static final String SHARED_PORT = "18081";
    private static final String REPORT_INTERVAL = "500ms";
    /** Both processes under load after A continues. */
    /** The IDs B issues while A, continued, is loaded beside it. */
    private static final long BOTH_LOADED_IDS = Long.getLong("leaftest.paused-ids", 15_000);

    private PausedHolderScenario() {}

    static void run(FaultContext context, ScenarioResult result) throws Exception {
        // The four modes' pairs run at once: each waits on a lease or session of its own registry
        // (the database's table, a ZooKeeper, a Redis, a Sentinel group), and one after another
        // those waits added up to two minutes. Their identities meet in no registry.
        List<Pair> pairs = FaultContext.concurrently(List.of(
                () -> mysqlPair(context), () -> zookeeperPair(context), () -> redisPair(context),
                () -> sentinelPair(context)));
        List<long[]> idsOfModes = new ArrayList<>();
        Map<String, String> outcomes = new LinkedHashMap<>();
        Map<String, List<Integer>> workerIds = new LinkedHashMap<>();
        for (Pair pair : pairs) {
            idsOfModes.add(pair.ids());
            outcomes.put(pair.mode(), pair.outcome());
            workerIds.put(pair.mode(), FaultContext.workerIds(pair.ids()));
        }

        // Each mode is a fleet of its own (a leaf.name, a registry), and at once two fleets may both
        // hold worker id 0: a repeat is one within a mode's pair.
        long[] all = idsOfModes.stream().flatMapToLong(Arrays::stream).toArray();
        long duplicates = idsOfModes.stream().mapToLong(ids -> IdChecks.duplicates(ids).count()).sum();
        result.load = CLIENTS_PER_INSTANCE + " snowflake clients per process; "
                + String.format(java.util.Locale.ROOT, "%,d", BOTH_LOADED_IDS)
                + " IDs from B with both processes loaded after the paused one continued";
        result.fault = "process A stopped (SIGSTOP) past its lease, process B of the same identity (127.0.0.1:"
                + SHARED_PORT + ") takes its worker id, A continued (SIGCONT) under load; mysql, zk_normal and redis "
                + "(report interval " + REPORT_INTERVAL + "); and redis behind Sentinel with the master frozen"
                + " (SIGSTOP) past down-after instead of A, the replica promoted, the old master let go on;"
                + " the four modes at once";
        result.idsChecked = all.length;
        result.duplicates = duplicates;
        result.errors = "A's refusals (503 worker-id-unavailable) and timeouts while stopped expected";
        result.recovery = outcomes.toString();
        result.note("Worker ids seen per mode (A and B): %s.", workerIds);

        assertThat(duplicates).as("duplicate IDs").isZero();
    }

    /** mysql: a holder silent for 10 report intervals (5 s) is taken over. */
    private static Pair mysqlPair(FaultContext context) throws Exception {
        List<String> mysql = new ArrayList<>(List.of("--leaf.snowflake.mode=mysql"));
        mysql.addAll(context.database.serverArguments(context.database.url()));
        return pausedPair(context, "mysql", mysql, Freeze.ofHolder(Duration.ofSeconds(6)));
    }

    /**
     * zk_normal: B waits for A's live node, which goes when A's session expires (6 s, the test
     * server's shortest) while A is stopped.
     */
    private static Pair zookeeperPair(FaultContext context) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            return pausedPair(context, "zk_normal", List.of("--leaf.snowflake.mode=zk_normal",
                    "--leaf.snowflake.zk.address=" + zookeeper.getConnectString(),
                    "--leaf.snowflake.zk.session-timeout=6s", "--leaf.snowflake.zk.connect-timeout=2s"),
                    Freeze.ofHolder(Duration.ofSeconds(1)));
        }
    }

    /** redis: B takes the address's sticky id once A's lease (11 s, the shortest allowed) ran out. */
    private static Pair redisPair(FaultContext context) throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            return pausedPair(context, "redis", List.of("--leaf.snowflake.mode=redis",
                    "--leaf.snowflake.redis.lease=11s", "--spring.data.redis.host=127.0.0.1",
                    "--spring.data.redis.port=" + redis.port()), Freeze.ofHolder(Duration.ofSeconds(12)));
        }
    }

    /**
     * redis behind Sentinel: the master frozen past down-after (1 s) and the replica promoted; B
     * starts once A's lease (11 s) ran out on the promoted one. A, never stopped, renews through the
     * Sentinels: on the promoted master its lease may still be its own (then B waits, and gets
     * another id), so the takeover is not asserted; a repeat is.
     */
    private static Pair sentinelPair(FaultContext context) throws Exception {
        try (RedisSentinelGroup sentinel = RedisSentinelGroup.start()) {
            Step freezeUntilPromoted = () -> {
                sentinel.freezeMaster();
                sentinel.awaitFailover();
            };
            Freeze master = new Freeze(freezeUntilPromoted, sentinel::thawMaster, Duration.ofSeconds(12), false,
                    "master frozen");
            return pausedPair(context, "redis-sentinel", List.of("--leaf.snowflake.mode=redis",
                    "--leaf.snowflake.redis.lease=11s",
                    "--spring.data.redis.sentinel.master=" + RedisSentinelGroup.MASTER_NAME,
                    "--spring.data.redis.sentinel.nodes=" + sentinel.nodes()), master);
        }
    }

    /** One mode's pair: every snowflake ID of A and B, and how it went. */
    private record Pair(String mode, long[] ids, String outcome) {}

    /** What cuts A off from its registry, and lets it go on. */
    private interface Step {
        void run() throws Exception;
    }

    /**
     * @param stop what cuts A off: A itself stopped (SIGSTOP), or its registry's master
     * @param resume what lets it go on
     * @param takeoverAfter how long after the stop B starts
     * @param takeoverCertain whether B must have taken A's id (when A itself was stopped)
     */
    private record Freeze(Step stop, Step resume, Duration takeoverAfter, boolean takeoverCertain, String what) {

        static Freeze ofHolder(Duration takeoverAfter) {
            return new Freeze(null, null, takeoverAfter, true, "A stopped");
        }
    }

    /**
     * A started and loaded, stopped (or its registry frozen); after {@code takeoverAfter} B of the same
     * identity started and loaded; A continued; both loaded until B gave {@link #BOTH_LOADED_IDS} IDs.
     */
    private static Pair pausedPair(FaultContext context, String mode, List<String> modeArguments, Freeze freeze)
            throws Exception {
        List<String> arguments = context.baseArguments("paused-" + mode, "--leaf.segment.enable=false",
                "--leaf.snowflake.port=" + SHARED_PORT, "--leaf.snowflake.report-interval=" + REPORT_INTERVAL);
        arguments.addAll(modeArguments);
        Map<String, String> environment = context.database.serverEnvironment();
        String name = "paused-" + mode.replace('_', '-');
        ServerProcess first = context.fleet.server(name + "-a", arguments, environment);
        ServerProcess second = context.fleet.server(name + "-b", arguments, environment);
        Step stop = freeze.stop() == null ? first::pause : freeze.stop();
        Step resume = freeze.resume() == null ? first::resume : freeze.resume();
        first.start().awaitReady(Duration.ofSeconds(120));
        LoadRun firstLoad = LoadRun.start(clients(first));
        LoadRun secondLoad = null;
        try {
            FaultContext.holdFor(firstLoad, 10_000);
            firstLoad.phase("stopped");
            stop.run();
            FaultContext.hold(freeze.takeoverAfter());
            second.start().awaitReady(Duration.ofSeconds(120));
            secondLoad = LoadRun.start(clients(second));
            FaultContext.hold(Duration.ofSeconds(1));
            firstLoad.phase("continued");
            resume.run();
            FaultContext.holdFor(secondLoad, BOTH_LOADED_IDS);
        } finally {
            resume.run();
        }
        LoadSummary firstRun = firstLoad.stop();
        LoadSummary secondRun = secondLoad.stop();
        first.stop();
        second.stop();

        long[] firstIds = FaultContext.ids(List.of(firstRun), Mode.SNOWFLAKE, spec -> true);
        long[] secondIds = FaultContext.ids(List.of(secondRun), Mode.SNOWFLAKE, spec -> true);
        long[] both = new long[firstIds.length + secondIds.length];
        System.arraycopy(firstIds, 0, both, 0, firstIds.length);
        System.arraycopy(secondIds, 0, both, firstIds.length, secondIds.length);
        long afterContinuing = firstRun.ids("continued", Mode.SNOWFLAKE, first.name());
        String outcome = String.format("%s: A %,d IDs, %,d of them after it continued; B %,d IDs; A's errors %s; "
                + "duplicates %d", freeze.what(), firstIds.length, afterContinuing, secondIds.length,
                ScenarioResult.errors(firstRun.errorsOf(first.name())), IdChecks.duplicates(both).count());
        assertThat(secondIds).as("%s: B issued", mode).isNotEmpty();
        assertThat(IdChecks.duplicates(both).count()).as("%s: IDs issued by both", mode).isZero();
        if (freeze.takeoverCertain()) {
            // B took A's id (else the scenario proves nothing); A may issue again only under another id (redis).
            assertThat(FaultContext.workerIds(firstIds)).as("%s: B's worker id was A's", mode)
                    .containsAll(FaultContext.workerIds(secondIds));
            // B refuses nothing for holding A's id; it may refuse, as any holder must, while its own lease
            // goes unconfirmed past its window (a CPU-starved renewal on a loaded machine).
            assertThat(second.logLines("Refused a snowflake ID") - second.logLines(
                    "Refused a snowflake ID: The lease of worker id")).as("%s: B refused nothing but for its own lease",
                    mode).isZero();
            assertThat(first.logText()).as("%s: A found its id lost", mode).contains("Worker id lost");
        }
        return new Pair(mode, both, outcome);
    }

    private static List<ClientSpec> clients(ServerProcess server) {
        List<ClientSpec> specs = new ArrayList<>();
        for (int c = 0; c < CLIENTS_PER_INSTANCE; c++) {
            specs.add(new ClientSpec(server.name(), server.port(), null, true, 5));
        }
        return specs;
    }
}
