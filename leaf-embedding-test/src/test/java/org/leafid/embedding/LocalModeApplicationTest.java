package org.leafid.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * An application with the starter and nothing else of Leaf's, issuing snowflake IDs in the
 * {@code local} worker-id mode: none of the optional modules' libraries is on its class path, it
 * starts, its IDs never repeat, {@code leaf_ids_issued_total} counts what the generator handed out,
 * and a mode or switch that needs a missing module stops the start naming the dependency.
 */
class LocalModeApplicationTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OrderApplication {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @ValueSource(strings = {"org.apache.ibatis.session.SqlSessionFactory", "com.alibaba.druid.pool.DruidDataSource",
            "org.h2.Driver", "com.mysql.cj.jdbc.Driver", "org.apache.curator.framework.CuratorFramework",
            "org.apache.zookeeper.ZooKeeper", "io.lettuce.core.RedisClient",
            "org.springframework.data.redis.core.StringRedisTemplate", "org.leafid.jdbc.SqlDialect",
            "org.leafid.zookeeper.ZkPaths", "org.leafid.redis.worker.RedisWorkerIdRegistry"})
    void noOptionalLibraryIsOnTheClassPath(String className) {
        assertThatThrownBy(() -> Class.forName(className, false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void startsAndIssuesSnowflakeIdsCountedByTheGenerator() throws Exception {
        try (ConfigurableApplicationContext application = start("leaf.snowflake.mode=local",
                "leaf.snowflake.local.worker-id=7")) {
            SnowflakeGenerator generator = application.getBean(SnowflakeGenerator.class);
            List<Long> ids = takeConcurrently(generator, 4, 25_000);
            ids.addAll(batches(generator, 10, 1_000));

            Set<Long> distinct = new HashSet<>(ids);
            assertThat(distinct).as("no ID repeated").hasSize(ids.size());
            assertThat(ids).allSatisfy(id -> assertThat(generator.layout().decode(id).workerId()).isEqualTo(7));
            double counted = application.getBean(MeterRegistry.class).get("leaf.ids.issued")
                    .tags("mode", "snowflake", "key", "all").functionCounter().count();
            assertThat(counted).as("leaf_ids_issued_total{mode=snowflake}, counted by the generator")
                    .isEqualTo(ids.size());
        }
    }

    @Test
    void segmentModeAskedForWithoutLeafJdbcStopsTheStartNamingTheDependency() {
        assertThatThrownBy(() -> start("leaf.snowflake.mode=local", "leaf.segment.enable=true").close())
                .rootCause().hasMessageContaining("leaf.segment.enable")
                .hasMessageContaining("org.leafid:leaf-jdbc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"zk_normal:leaf-zookeeper", "zk_recycle:leaf-zookeeper", "mysql:leaf-jdbc",
            "disposable:leaf-jdbc"})
    void aWorkerIdModeWithoutItsModuleStopsTheStartNamingTheDependency(String modeAndModule) {
        String[] parts = modeAndModule.split(":");
        assertThatThrownBy(() -> start("leaf.snowflake.mode=" + parts[0],
                "leaf.snowflake.zk.address=127.0.0.1:1").close())
                .rootCause().hasMessageContaining("leaf.snowflake.mode is " + parts[0])
                .hasMessageContaining("org.leafid:" + parts[1]);
    }

    private ConfigurableApplicationContext start(String... settings) {
        List<String> arguments = new ArrayList<>(List.of("--leaf.name=embedding", "--leaf.data-dir=" + dataDir,
                "--leaf.snowflake.ip=127.0.0.1", "--leaf.snowflake.port=19600"));
        for (String setting : settings) {
            arguments.add("--" + setting);
        }
        return new SpringApplicationBuilder(OrderApplication.class).web(WebApplicationType.NONE)
                .run(arguments.toArray(String[]::new));
    }

    private static List<Long> takeConcurrently(SnowflakeGenerator generator, int threads, int each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> takers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                takers.add(pool.submit(() -> {
                    List<Long> taken = new ArrayList<>(each);
                    for (int i = 0; i < each; i++) {
                        taken.add(generator.nextId());
                    }
                    return taken;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> taker : takers) {
                all.addAll(taker.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<Long> batches(SnowflakeGenerator generator, int batches, int size) {
        List<Long> all = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            for (long id : generator.nextIds(size)) {
                all.add(id);
            }
        }
        return all;
    }
}
