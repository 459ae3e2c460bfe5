package org.leafid.autoconfigure.snowflake.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.app.ConcurrentIds;
import org.leafid.autoconfigure.properties.LeafPropertiesAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.autoconfigure.snowflake.local.LocalWorkerIdAutoConfiguration;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.core.worker.WorkerIdHolder;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.core.worker.kubernetes.KubernetesWorkerIdRegistry;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The {@code kubernetes} mode as auto-configured: the worker id from {@code HOSTNAME} or the key, shifted
 * by the offset, checked against the layout in use, held with its reservation in {@code workId.json}
 * under {@code leaf.data-dir}; a pod name it cannot use stops the start naming the key.
 */
class KubernetesWorkerIdAutoConfigurationTest {

    private static final int PORT = 18471;

    @TempDir
    Path dataDir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LeafPropertiesAutoConfiguration.class,
                        ClockAutoConfiguration.class, SnowflakeAutoConfiguration.class,
                        LocalWorkerIdAutoConfiguration.class, KubernetesWorkerIdAutoConfiguration.class))
                .withPropertyValues("leaf.data-dir=" + dataDir, "leaf.snowflake.ip=127.0.0.1",
                        "leaf.snowflake.port=" + PORT, "leaf.snowflake.mode=kubernetes");
    }

    @Test
    void podLeaf7HoldsWorkerId7AndItsIdsCarryIt() {
        runner().withPropertyValues("HOSTNAME=leaf-7").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(WorkerIdRegistry.class)).isInstanceOf(KubernetesWorkerIdRegistry.class);
            assertThat(context.getBean(WorkerIdHolder.class).lease().workerId()).isEqualTo(7);
            assertThat(workerIdsOf(context, issue(context, 2_000))).containsExactly(7);
            assertThat(dataDir.resolve("leaf").resolve(Integer.toString(PORT)).resolve("workId.json"))
                    .as("the reservation, on the pod's volume").exists();
        });
    }

    @Test
    void theKeyOverridesHostnameAndTheOffsetShiftsTheOrdinal() {
        runner().withPropertyValues("HOSTNAME=node-9", "leaf.snowflake.kubernetes.pod-name=leaf-3")
                .run(context -> assertThat(context.getBean(WorkerIdHolder.class).lease().workerId()).isEqualTo(3));
        runner().withPropertyValues("HOSTNAME=leaf-2", "leaf.snowflake.kubernetes.offset=10")
                .run(context -> assertThat(context.getBean(WorkerIdHolder.class).lease().workerId()).isEqualTo(12));
    }

    @Test
    void theWorkerIdIsCheckedAgainstTheLayoutInUse() {
        String[] eightWorkerBits = {"leaf.snowflake.layout.time-bits=43", "leaf.snowflake.layout.worker-bits=8",
                "leaf.snowflake.layout.sequence-bits=12"};
        runner().withPropertyValues(eightWorkerBits).withPropertyValues("HOSTNAME=leaf-255").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(workerIdsOf(context, issue(context, 500))).containsExactly(255);
        });
        runner().withPropertyValues(eightWorkerBits).withPropertyValues("HOSTNAME=leaf-256")
                .run(context -> assertRefused(context, "leaf.snowflake.kubernetes.offset", "past 255"));
        runner().withPropertyValues("HOSTNAME=leaf-1", "leaf.snowflake.kubernetes.offset=1023")
                .run(context -> assertRefused(context, "leaf.snowflake.kubernetes.offset", "would be 1024"));
    }

    @Test
    void aPodNameWithoutOrdinalOrNoneAtAllStopsTheStartNamingTheKey() {
        runner().withPropertyValues("HOSTNAME=leaf-7d9f8b-x2k4q")
                .run(context -> assertRefused(context, "leaf.snowflake.kubernetes.pod-name", "'leaf-7d9f8b-x2k4q'"));
        runner().withPropertyValues("HOSTNAME=")
                .run(context -> assertRefused(context, "leaf.snowflake.kubernetes.pod-name", "unset"));
        runner().withPropertyValues("HOSTNAME=leaf-1", "leaf.snowflake.kubernetes.offset=-1")
                .run(context -> assertRefused(context, "leaf.snowflake.kubernetes.offset", "-1"));
    }

    @Test
    void otherModesIgnoreThePodName() {
        runner().withPropertyValues("leaf.snowflake.mode=local", "leaf.snowflake.local.worker-id=5",
                "HOSTNAME=no-ordinal-here-x").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(WorkerIdHolder.class).lease().workerId()).isEqualTo(5);
                });
    }

    @Test
    void aRestartOnTheSameDataDirWaitsPastTheReservationAndRepeatsNoId() throws Exception {
        long[][] runs = new long[2][];
        for (int run = 0; run < 2; run++) {
            int index = run;
            runner().withPropertyValues("HOSTNAME=leaf-7").run(context -> {
                assertThat(context).hasNotFailed();
                runs[index] = issue(context, 20_000);
            });
        }
        long[] all = ConcurrentIds.assertNoDuplicate(runs[0], runs[1]);
        assertThat(all).hasSize(40_000);
        assertThat(LongStream.of(runs[1]).min().orElseThrow())
                .as("the second run starts after everything the first issued")
                .isGreaterThan(LongStream.of(runs[0]).max().orElseThrow());
        assertThat(Files.readString(dataDir.resolve("leaf").resolve(Integer.toString(PORT)).resolve("workId.json")))
                .contains("7");
    }

    private static long[] issue(AssertableApplicationContext context, int count) throws Exception {
        long[][] perThread = ConcurrentIds.take(2, count / 2, context.getBean(SnowflakeGenerator.class)::nextId);
        return ConcurrentIds.assertNoDuplicate(perThread);
    }

    private static int[] workerIdsOf(AssertableApplicationContext context, long[] ids) {
        SnowflakeLayout layout = context.getBean(SnowflakeLayout.class);
        return Arrays.stream(ids).mapToInt(id -> layout.decode(id).workerId()).distinct().toArray();
    }

    private static void assertRefused(AssertableApplicationContext context, String key, String problem) {
        assertThat(context).hasFailed();
        assertThat(context.getStartupFailure()).rootCause()
                .isInstanceOfSatisfying(LeafConfigurationException.class, e -> {
                    assertThat(e.key()).isEqualTo(key);
                    assertThat(e.problem()).contains(problem);
                })
                .message().doesNotContain("\n");
    }
}
