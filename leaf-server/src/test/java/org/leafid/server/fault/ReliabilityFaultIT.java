package org.leafid.server.fault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.leafid.server.support.TestReports;

/**
 * The fault suite: real server processes under load, with a part of their world broken, and
 * every ID they issue checked. Scenarios run one after another (each needs the machine to
 * itself); at the end of a run of all of them the measured figures, failures included, are
 * written to {@code target/reports/RELIABILITY.md} ({@code ops/publish-test-reports.sh} copies it
 * to the repository root). A run of some scenarios only ({@code -Dit.test=ReliabilityFaultIT#crash*})
 * writes them next to the server logs in {@code target/fault-logs/} instead, as does the default
 * build's run of one scenario per store (the others are {@link FullFaultSuite}: {@code -Pfault-suite}
 * runs them all): MariaDB's outage, a ZooKeeper partition, a Redis list that went back, PostgreSQL's
 * backends ended and the server restarted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReliabilityFaultIT {

    /** Every scenario: the full suite's run (-Pfault-suite) writes RELIABILITY.md when all of them ran. */
    private static final int SCENARIOS = 39;

    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final List<ScenarioResult> results = new ArrayList<>();
    private final String token = "fault-token-" + UUID.randomUUID();
    private long suiteStartedNanos;
    private FaultContext context;
    private ServerProcess tokenServer;
    /** A server that the scenarios running now share, kept between them; null when none. */
    private ServerProcess sharedServer;
    /** Servers that the stages of one setup share, kept between them. */
    private List<ServerProcess> sharedServers = List.of();
    private String tokenServerTag;

    @FunctionalInterface
    interface Scenario {
        void run(ScenarioResult result) throws Exception;
    }

    @BeforeAll
    void prepare() throws Exception {
        suiteStartedNanos = System.nanoTime();
        context = new FaultContext(runId, new Fleet(runId), FaultDatabase.open());
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
        ReliabilityReport.write(report, results, suiteMillis, context.database.version());
        System.out.println("[fault suite] " + results.size() + " scenarios in " + suiteMillis / 1000 + " s; figures in "
                + report);
    }

    @Test
    @Order(1)
    @FullFaultSuite
    void threeInstancesOnOneDatabaseAndZookeeperIssueNoDuplicate() throws Exception {
        scenario("Multi-instance", result -> MultiInstanceScenario.run(context, result));
    }

    @Test
    @Order(2)
    @FullFaultSuite
    void killedInstanceRestartsWithoutRepeatingAnId() throws Exception {
        scenario("Crash (kill -9)", result -> CrashScenario.run(context, result));
    }

    @Test
    @Order(3)
    void databaseOutageServesFromBuffersThenRefusesThenRecovers() throws Exception {
        scenario("Database outage", result -> DatabaseOutageScenario.run(context, result));
    }

    @Test
    @Order(4)
    @FullFaultSuite
    void zookeeperQuorumLossAndZookeeperDownAtStart() throws Throwable {
        try (ZookeeperOutageScenario zookeeper = new ZookeeperOutageScenario(context)) {
            scenarios(new Named("ZooKeeper quorum loss", zookeeper::quorumLoss),
                    new Named("ZooKeeper down at start", zookeeper::downAtStart));
        }
    }

    @Test
    @Order(5)
    void zookeeperPartitionStopsZkNormalOnceItsConfirmedRenewalRunsOutAndItIssuesAgainAfter() throws Exception {
        scenario("ZooKeeper partition", result -> ZookeeperPartitionScenario.run(context, result));
    }

    @Test
    @Order(6)
    @FullFaultSuite
    void clockMovedBackIsWaitedOutOrRefusedNeverRepeated() throws Exception {
        scenario("Clock moved back", result -> ClockScenario.run(context, result));
    }

    @Test
    @Order(7)
    @FullFaultSuite
    void hostileRequestsGetTheirFourHundredsAndChangeNothing() throws Exception {
        scenario("Bad input", result -> BadInputScenario.run(context, tokenServer(), tokenServerTag, token, result));
    }

    @Test
    @Order(8)
    @FullFaultSuite
    void securityReview() throws Exception {
        scenario("Security review", result -> SecurityReview.run(context, tokenServer(), token, result));
    }

    @Test
    @Order(9)
    @FullFaultSuite
    void shardModeOnTwoServersWithBothBuffersNeverRepeatsNorPassesTheLimit() throws Exception {
        scenario("Shard mode, two buffers", result -> ShardScenario.twoServersBothBuffers(context, result));
    }

    @Test
    @Order(10)
    @FullFaultSuite
    void shardModeBridgesARedisOutageWithoutRepeating() throws Exception {
        scenario("Shard mode, Redis killed", result -> ShardScenario.redisKilledUnderLoad(context, result));
    }

    @Test
    @Order(11)
    @FullFaultSuite
    void serversWithAndWithoutAnOpaqueKeyNeverBothServeAnApp() throws Exception {
        scenario("Mixed-key fleet", result -> EdgeScenario.mixedKeyFleet(context, result));
    }

    @Test
    @Order(12)
    @FullFaultSuite
    void anAppDeletedAndCreatedAgainUnderLoadRepeatsNoId() throws Exception {
        scenario("App deleted and created again", result -> EdgeScenario.appDeletedAndCreatedAgain(context, result));
    }

    @Test
    @Order(13)
    @FullFaultSuite
    void maxIdSetBackUnderLoadRepeatsNoId() throws Exception {
        scenario("max_id set back", result -> EdgeScenario.maxIdSetBack(context, result));
    }

    @Test
    @Order(14)
    void aRedisListThatGoesBackInTimeIsNeverServed() throws Exception {
        scenario("Lagging Redis list", result -> EdgeScenario.laggingRedisList(context, result));
    }

    @Test
    @Order(15)
    @FullFaultSuite
    void leafClientAgainstAGarbageDrippingOrEndlessServerHandsOutOnlyTheGoodServersIds() throws Throwable {
        try (BadServerScenario badServer = new BadServerScenario(context)) {
            sharedServer = badServer.goodProcess();
            scenarios(new Named("Client against a garbage server", badServer::garbage),
                    new Named("Client against a dripping server", badServer::dripping),
                    new Named("Client against an endless body", badServer::endless),
                    new Named("Client against a replaying server", badServer::replaying));
        } finally {
            sharedServer = null;
        }
    }

    @Test
    @Order(16)
    void twoServersOnPostgresqlThroughEndedBackendsAndARestartRepeatNoId() throws Exception {
        scenario("PostgreSQL: backends ended, restart", result -> PostgresScenario.run(context, result));
    }

    @Test
    @Order(17)
    @FullFaultSuite
    void redisWorkerIdsSurviveAKillAFlushAllAndARedisRestartWithoutRepeating() throws Exception {
        scenario("Snowflake redis mode: kill -9, FLUSHALL, Redis restarted",
                result -> RedisWorkerIdScenario.run(context, result));
    }

    @Test
    @Order(18)
    @FullFaultSuite
    void anAppReCreatedBySqlWithoutItsModeIsNotClaimedByAKeyedServer() throws Exception {
        scenario("App re-created by SQL, mode record deleted",
                result -> EdgeScenario.appReCreatedBySqlWithoutItsMode(context, result));
    }

    @Test
    @Order(19)
    @FullFaultSuite
    void twoProcessesOfOneIdentityNeverShareAWorkerId() throws Exception {
        scenario("Two processes, one identity", result -> IdentityScenario.run(context, result));
    }

    @Test
    @Order(19)
    @FullFaultSuite
    void aHolderPausedPastItsLeaseIssuesNothingWithTheIdAnotherProcessTook() throws Exception {
        scenario("A holder paused past its lease", result -> PausedHolderScenario.run(context, result));
    }

    @Test
    @Order(20)
    @FullFaultSuite
    void aBackupRestoredUnderRestartedServersRepeatsNoId() throws Exception {
        scenario("A backup restored, the servers restarted", result -> StoreWentBackScenario.restoredBackup(context, result));
    }

    @Test
    @Order(20)
    @FullFaultSuite
    void aBackupRestoredUnderNewPodsIsCaughtByTheFleetsWitness() throws Exception {
        scenario("A backup restored under new pods, Redis as witness",
                result -> StoreWentBackScenario.restoredBackupUnderNewPods(context, result));
    }

    @Test
    @Order(20)
    @FullFaultSuite
    void aCopyUnderAnotherNameServesNothingUntilDeclared() throws Exception {
        scenario("A copy under another name beside the original",
                result -> StoreWentBackScenario.copiedUnderAnotherName(context, result));
    }

    @Test
    @Order(20)
    @FullFaultSuite
    void maxIdSetBackTogetherWithItsMarkRepeatsNoId() throws Exception {
        scenario("max_id and its mark set back together", result -> StoreWentBackScenario.setBackTogether(context, result));
    }

    @Test
    @Order(21)
    @FullFaultSuite
    void aFailoverToAPostgresqlStandbyThatLaggedRepeatsNoId() throws Exception {
        scenario("PostgreSQL failover to a lagging standby",
                result -> StoreWentBackScenario.failover(context, result, StoreWentBackScenario.Copy.POSTGRESQL_ASYNCHRONOUS));
    }

    @Test
    @Order(23)
    @FullFaultSuite
    void aFailoverToAPostgresqlSynchronousStandbyRepeatsNoId() throws Exception {
        scenario("PostgreSQL failover to a synchronous standby",
                result -> StoreWentBackScenario.failover(context, result, StoreWentBackScenario.Copy.POSTGRESQL_SYNCHRONOUS));
    }

    @Test
    @Order(24)
    @FullFaultSuite
    void aFailoverToAMariadbReplicaThatLaggedRepeatsNoId() throws Exception {
        scenario("MariaDB failover to a lagging replica",
                result -> StoreWentBackScenario.failover(context, result, StoreWentBackScenario.Copy.MARIADB_DELAYED));
    }

    @Test
    @Order(22)
    @FullFaultSuite
    void aSentinelFailoverToAReplicaThatLaggedRepeatsNoId() throws Exception {
        scenario("Redis Sentinel failover to a lagging replica", result -> SentinelScenario.run(context, result));
    }

    @Test
    @Order(25)
    @FullFaultSuite
    void aGaleraClusterLosingNodesUnderLoadRepeatsNoId() throws Exception {
        scenario("Galera: nodes killed", result -> GaleraScenario.run(context, result));
    }

    @Test
    @Order(26)
    @FullFaultSuite
    void severalStoresKeepIssuingThroughKillsStallsCutsRestoresAddsAndRetires() throws Throwable {
        try (SeveralStoresScenario stores = SeveralStoresScenario.start(context)) {
            sharedServers = stores.servers();
            scenarios(new Named("Several stores: two of three killed in turn, then back", stores::killTwo),
                    new Named("Several stores: one stalled (SIGSTOP) 20 s", stores::stall),
                    new Named("Several stores: one cut off by a TCP proxy", stores::cutOff),
                    new Named("Several stores: one restored from a dump taken 250,000 IDs earlier", stores::restore),
                    new Named("Several stores: one added under load", stores::add),
                    new Named("Several stores: one retired under load", stores::retire));
        } finally {
            sharedServers = List.of();
        }
    }

    /** The server with an admin token, shared by the bad-input scenario and the security review. */
    private ServerProcess tokenServer() {
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

    /** Runs each scenario to its end, whether the ones before failed or not; then throws the first failure. */
    private void scenarios(Named... scenarios) throws Throwable {
        Throwable failure = null;
        for (Named named : scenarios) {
            try {
                scenario(named.name(), named.body());
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

    private void scenario(String name, Scenario body) throws Exception {
        ScenarioResult result = new ScenarioResult(name);
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
            List<ServerProcess> kept = new ArrayList<>(sharedServers);
            kept.add(tokenServer);
            kept.add(sharedServer);
            context.fleet.killAllExcept(kept.toArray(ServerProcess[]::new));
        }
    }
}
