package org.leafid.server.fault;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.leafid.server.support.TestReports;

/**
 * The fault suite: real server processes under load, with a part of their world broken, and
 * every ID they issue checked. Scenarios run in two lanes at once ({@link FirstLane}, {@link
 * SecondLane}; one scenario at a time within a lane): most of a scenario's time is a wait on a
 * clock of its own (a lease, a failover, a restart), which the other lane's load fills. Each
 * scenario has a {@link Fleet#scope()} of the run, so the kill at its end leaves the other lane's
 * servers alone, and its own tags, apps and stores. A scenario that looks at the whole database
 * runs {@link Alone}. At the end of a run of all of them the measured figures, failures included, are
 * written to {@code target/reports/RELIABILITY.md} ({@code ops/publish-test-reports.sh} copies it
 * to the repository root). A run of some scenarios only ({@code -Dit.test=ReliabilityFaultIT#crash*})
 * writes them next to the server logs in {@code target/fault-logs/} instead, as does the default
 * build's run of one scenario per store (the others are {@link FullFaultSuite}: {@code -Pfault-suite}
 * runs them all): MariaDB's outage, a ZooKeeper partition, a Redis list that went back, PostgreSQL's
 * backends ended and the server restarted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Execution(ExecutionMode.CONCURRENT)
class ReliabilityFaultIT {

    /** The lock every scenario holds: shared by the two lanes, taken whole by an {@link Alone} one. */
    private static final String MACHINE = "fault-suite-machine";

    /** A scenario of the first lane: one at a time with the others of its lane, beside the second's. */
    @Target({ElementType.METHOD, ElementType.TYPE})
    @Retention(RetentionPolicy.RUNTIME)
    @ResourceLock("fault-suite-first-lane")
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ)
    @interface FirstLane {}

    /** A scenario of the second lane, or a class of tests run whole in it ({@link LeafClientIT}). */
    @Target({ElementType.METHOD, ElementType.TYPE})
    @Retention(RetentionPolicy.RUNTIME)
    @ResourceLock("fault-suite-second-lane")
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ)
    @interface SecondLane {}

    /** A scenario with the machine to itself: one that compares every leaf_alloc row before and after. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ResourceLock(MACHINE)
    @interface Alone {}

    /** Every scenario: the full suite's run (-Pfault-suite) writes RELIABILITY.md when all of them ran. */
    private static final int SCENARIOS = 39;

    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final List<ScenarioResult> results = Collections.synchronizedList(new ArrayList<>());
    /** The running scenario method's {@link Order}: the report lists the scenarios in that order. */
    private final ThreadLocal<Integer> order = ThreadLocal.withInitial(() -> 0);
    private final String token = "fault-token-" + UUID.randomUUID();
    private long suiteStartedNanos;
    private FaultContext context;
    private ServerProcess tokenServer;
    private String tokenServerTag;

    /** A scenario of a group, in the group's scope. */
    @FunctionalInterface
    interface Scenario {
        void run(ScenarioResult result) throws Exception;
    }

    /** A scenario of its own, in a scope of its own. */
    @FunctionalInterface
    interface ScopedScenario {
        void run(FaultContext scope, ScenarioResult result) throws Exception;
    }

    @BeforeAll
    void prepare() throws Exception {
        suiteStartedNanos = System.nanoTime();
        context = new FaultContext(runId, new Fleet(runId), FaultDatabase.open());
    }

    @BeforeEach
    void noteOrder(TestInfo test) {
        order.set(test.getTestMethod().map(method -> method.getAnnotation(Order.class)).map(Order::value).orElse(0));
    }

    @AfterAll
    void finish() throws Exception {
        if (context == null) {
            return; // no database (skipped), or the jar is missing: nothing ran
        }
        context.fleet.close();
        long suiteMillis = (System.nanoTime() - suiteStartedNanos) / 1_000_000;
        boolean complete = results.size() == SCENARIOS;
        Path report = complete ? TestReports.file("RELIABILITY.md")
                : context.fleet.logs().resolve(runId + "-RELIABILITY.md");
        ReliabilityReport.write(report, ScenarioResult.inOrder(results), suiteMillis, context.database.version());
        System.out.println("[fault suite] " + results.size() + " scenarios in " + suiteMillis / 1000 + " s; figures in "
                + report);
    }

    @Test
    @Order(1)
    @FullFaultSuite
    @SecondLane
    void threeInstancesOnOneDatabaseAndZookeeperIssueNoDuplicate() throws Exception {
        scenario("Multi-instance", MultiInstanceScenario::run);
    }

    @Test
    @Order(2)
    @FullFaultSuite
    @FirstLane
    void killedInstanceRestartsWithoutRepeatingAnId() throws Exception {
        scenario("Crash (kill -9)", CrashScenario::run);
    }

    @Test
    @Order(3)
    @SecondLane
    void databaseOutageServesFromBuffersThenRefusesThenRecovers() throws Exception {
        scenario("Database outage", DatabaseOutageScenario::run);
    }

    @Test
    @Order(4)
    @FullFaultSuite
    @FirstLane
    void zookeeperQuorumLossAndZookeeperDownAtStart() throws Throwable {
        FaultContext scope = context.scope();
        try (ZookeeperOutageScenario zookeeper = new ZookeeperOutageScenario(scope)) {
            scenarios(scope, List.of(), new Named("ZooKeeper quorum loss", zookeeper::quorumLoss),
                    new Named("ZooKeeper down at start", zookeeper::downAtStart));
        }
    }

    @Test
    @Order(5)
    @FirstLane
    void zookeeperPartitionStopsZkNormalOnceItsConfirmedRenewalRunsOutAndItIssuesAgainAfter() throws Exception {
        scenario("ZooKeeper partition", ZookeeperPartitionScenario::run);
    }

    @Test
    @Order(6)
    @FullFaultSuite
    @FirstLane
    void clockMovedBackIsWaitedOutOrRefusedNeverRepeated() throws Exception {
        scenario("Clock moved back", ClockScenario::run);
    }

    @Test
    @Order(7)
    @FullFaultSuite
    @Alone
    void hostileRequestsGetTheirFourHundredsAndChangeNothing() throws Exception {
        scenario("Bad input", (scope, result) -> BadInputScenario.run(scope, tokenServer(), tokenServerTag, token, result));
    }

    @Test
    @Order(8)
    @FullFaultSuite
    @Alone
    void securityReview() throws Exception {
        scenario("Security review", (scope, result) -> SecurityReview.run(scope, tokenServer(), token, result));
    }

    @Test
    @Order(9)
    @FullFaultSuite
    @SecondLane
    void shardModeOnTwoServersWithBothBuffersNeverRepeatsNorPassesTheLimit() throws Exception {
        scenario("Shard mode, two buffers", ShardScenario::twoServersBothBuffers);
    }

    @Test
    @Order(10)
    @FullFaultSuite
    @SecondLane
    void shardModeBridgesARedisOutageWithoutRepeating() throws Exception {
        scenario("Shard mode, Redis killed", ShardScenario::redisKilledUnderLoad);
    }

    @Test
    @Order(11)
    @FullFaultSuite
    @SecondLane
    void serversWithAndWithoutAnOpaqueKeyNeverBothServeAnApp() throws Exception {
        scenario("Mixed-key fleet", EdgeScenario::mixedKeyFleet);
    }

    @Test
    @Order(12)
    @FullFaultSuite
    @SecondLane
    void anAppDeletedAndCreatedAgainUnderLoadRepeatsNoId() throws Exception {
        scenario("App deleted and created again", EdgeScenario::appDeletedAndCreatedAgain);
    }

    @Test
    @Order(13)
    @FullFaultSuite
    @SecondLane
    void maxIdSetBackUnderLoadRepeatsNoId() throws Exception {
        scenario("max_id set back", EdgeScenario::maxIdSetBack);
    }

    @Test
    @Order(14)
    @SecondLane
    void aRedisListThatGoesBackInTimeIsNeverServed() throws Exception {
        scenario("Lagging Redis list", EdgeScenario::laggingRedisList);
    }

    @Test
    @Order(15)
    @FullFaultSuite
    @FirstLane
    void leafClientAgainstAGarbageDrippingOrEndlessServerHandsOutOnlyTheGoodServersIds() throws Throwable {
        FaultContext scope = context.scope();
        try (BadServerScenario badServer = new BadServerScenario(scope)) {
            scenarios(scope, List.of(badServer.goodProcess()),
                    new Named("Client against a garbage server", badServer::garbage),
                    new Named("Client against a dripping server", badServer::dripping),
                    new Named("Client against an endless body", badServer::endless),
                    new Named("Client against a replaying server", badServer::replaying));
        }
    }

    @Test
    @Order(16)
    @SecondLane
    void twoServersOnPostgresqlThroughEndedBackendsAndARestartRepeatNoId() throws Exception {
        scenario("PostgreSQL: backends ended, restart", PostgresScenario::run);
    }

    @Test
    @Order(17)
    @FullFaultSuite
    @FirstLane
    void redisWorkerIdsSurviveAKillAFlushAllAndARedisRestartWithoutRepeating() throws Exception {
        scenario("Snowflake redis mode: kill -9, FLUSHALL, Redis restarted",
                RedisWorkerIdScenario::run);
    }

    @Test
    @Order(18)
    @FullFaultSuite
    @SecondLane
    void anAppReCreatedBySqlWithoutItsModeIsNotClaimedByAKeyedServer() throws Exception {
        scenario("App re-created by SQL, mode record deleted",
                EdgeScenario::appReCreatedBySqlWithoutItsMode);
    }

    @Test
    @Order(19)
    @FullFaultSuite
    @FirstLane
    void twoProcessesOfOneIdentityNeverShareAWorkerId() throws Exception {
        scenario("Two processes, one identity", IdentityScenario::run);
    }

    @Test
    @Order(19)
    @FullFaultSuite
    @FirstLane
    void aHolderPausedPastItsLeaseIssuesNothingWithTheIdAnotherProcessTook() throws Exception {
        scenario("A holder paused past its lease", PausedHolderScenario::run);
    }

    @Test
    @Order(20)
    @FullFaultSuite
    @SecondLane
    void aBackupRestoredUnderRestartedServersRepeatsNoId() throws Exception {
        scenario("A backup restored, the servers restarted", StoreWentBackScenario::restoredBackup);
    }

    @Test
    @Order(20)
    @FullFaultSuite
    @SecondLane
    void aBackupRestoredUnderNewPodsIsCaughtByTheFleetsWitness() throws Exception {
        scenario("A backup restored under new pods, Redis as witness",
                StoreWentBackScenario::restoredBackupUnderNewPods);
    }

    @Test
    @Order(20)
    @FullFaultSuite
    @SecondLane
    void aCopyUnderAnotherNameServesNothingUntilDeclared() throws Exception {
        scenario("A copy under another name beside the original",
                StoreWentBackScenario::copiedUnderAnotherName);
    }

    @Test
    @Order(20)
    @FullFaultSuite
    @SecondLane
    void maxIdSetBackTogetherWithItsMarkRepeatsNoId() throws Exception {
        scenario("max_id and its mark set back together", StoreWentBackScenario::setBackTogether);
    }

    @Test
    @Order(21)
    @FullFaultSuite
    @SecondLane
    void aFailoverToAPostgresqlStandbyThatLaggedRepeatsNoId() throws Exception {
        scenario("PostgreSQL failover to a lagging standby",
                (scope, result) -> StoreWentBackScenario.failover(scope, result, StoreWentBackScenario.Copy.POSTGRESQL_ASYNCHRONOUS));
    }

    @Test
    @Order(23)
    @FullFaultSuite
    @SecondLane
    void aFailoverToAPostgresqlSynchronousStandbyRepeatsNoId() throws Exception {
        scenario("PostgreSQL failover to a synchronous standby",
                (scope, result) -> StoreWentBackScenario.failover(scope, result, StoreWentBackScenario.Copy.POSTGRESQL_SYNCHRONOUS));
    }

    @Test
    @Order(24)
    @FullFaultSuite
    @SecondLane
    void aFailoverToAMariadbReplicaThatLaggedRepeatsNoId() throws Exception {
        scenario("MariaDB failover to a lagging replica",
                (scope, result) -> StoreWentBackScenario.failover(scope, result, StoreWentBackScenario.Copy.MARIADB_DELAYED));
    }

    @Test
    @Order(22)
    @FullFaultSuite
    @FirstLane
    void aSentinelFailoverToAReplicaThatLaggedRepeatsNoId() throws Exception {
        scenario("Redis Sentinel failover to a lagging replica", SentinelScenario::run);
    }

    @Test
    @Order(25)
    @FullFaultSuite
    @FirstLane
    void aGaleraClusterLosingNodesUnderLoadRepeatsNoId() throws Exception {
        scenario("Galera: nodes killed", GaleraScenario::run);
    }

    @Test
    @Order(26)
    @FullFaultSuite
    @SecondLane
    void severalStoresKeepIssuingThroughKillsStallsCutsRestoresAddsAndRetires() throws Throwable {
        FaultContext scope = context.scope();
        try (SeveralStoresScenario stores = SeveralStoresScenario.start(scope)) {
            scenarios(scope, stores.servers(), new Named("Several stores: two of three killed in turn, then back", stores::killTwo),
                    new Named("Several stores: one stalled (SIGSTOP) 20 s", stores::stall),
                    new Named("Several stores: one cut off by a TCP proxy", stores::cutOff),
                    new Named("Several stores: one restored from a dump taken 250,000 IDs earlier", stores::restore),
                    new Named("Several stores: one added under load", stores::add),
                    new Named("Several stores: one retired under load", stores::retire));
        }
    }

    /**
     * The server with an admin token, shared by the bad-input scenario and the security review: a
     * server of the run's fleet, not of a scenario's scope, so that it outlives both.
     */
    private synchronized ServerProcess tokenServer() {
        if (tokenServer == null) {
            tokenServerTag = context.newTag("bad-input", 1, 1000);
            // Shard mode on too: its endpoints are among the hostile requests.
            List<String> arguments = context.baseArguments("bad-input", "--leaf.shard.enable=true");
            arguments.addAll(context.database.serverArguments(context.database.url()));
            Map<String, String> environment = new HashMap<>(context.database.serverEnvironment());
            environment.put("LEAF_ADMIN_TOKEN", token);
            tokenServer = context.fleet.server("bad-input", arguments, environment);
            tokenServer.start().awaitReady(Duration.ofSeconds(90));
        }
        return tokenServer;
    }

    /** A scenario and its name, one of several run by {@link #scenarios}. */
    private record Named(String name, Scenario body) {}

    /**
     * Runs each scenario of a group to its end in the group's scope, whether the ones before failed
     * or not, killing the scope's servers but the kept ones after each; then throws the first failure.
     */
    private void scenarios(FaultContext scope, List<ServerProcess> kept, Named... scenarios) throws Throwable {
        Throwable failure = null;
        for (Named named : scenarios) {
            try {
                run(scope, kept, named.name(), named.body());
            } catch (Exception | AssertionError e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A scenario of its own: a scope of the run, whose servers are all killed at its end. */
    private void scenario(String name, ScopedScenario body) throws Exception {
        FaultContext scope = context.scope();
        run(scope, List.of(), name, result -> body.run(scope, result));
    }

    private void run(FaultContext scope, List<ServerProcess> kept, String name, Scenario body) throws Exception {
        ScenarioResult result = new ScenarioResult(name, order.get(), System.nanoTime() - suiteStartedNanos);
        results.add(result);
        long started = System.nanoTime();
        try {
            body.run(result);
        } catch (Exception | AssertionError e) {
            String message = String.valueOf(e.getMessage()).replaceAll("\\s+", " ").strip();
            result.failure = message.length() <= 240 ? message : message.substring(0, 240) + "…";
            throw e;
        } finally {
            result.wallMillis = (System.nanoTime() - started) / 1_000_000;
            scope.fleet.killAllExcept(kept.toArray(ServerProcess[]::new));
        }
    }
}
