package org.leafid.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.leafid.core.segment.SegmentAllocator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter without leaf-jdbc (its optional dependency), as docs/embedding.md's example is when the
 * dependency is left out: a configured Leaf database, or an injected segment bean, stops the start
 * naming org.leafid:leaf-jdbc; with neither, segment mode is off and the start goes on.
 */
class JdbcModuleMissingTest {

    private static final FilteredClassLoader WITHOUT_LEAF_JDBC = new FilteredClassLoader("org.leafid.jdbc");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withClassLoader(WITHOUT_LEAF_JDBC)
            .withConfiguration(AutoConfigurations.of(LeafJdbcAutoConfiguration.class,
                    LeafJdbcMissingAutoConfiguration.class))
            .withPropertyValues("leaf.snowflake.enable=false");

    @Test
    void aLeafDatabaseWithoutLeafJdbcStopsTheStartNamingTheModule() {
        for (String key : new String[] {"leaf.jdbc.url", "leaf.jdbc.stores[0].url"}) {
            runner.withPropertyValues(key + "=jdbc:mysql://127.0.0.1:3306/leaf").run(context -> assertThat(context)
                    .hasFailed().getFailure().hasStackTraceContaining(key + " is set")
                    .hasStackTraceContaining("Add the dependency org.leafid:leaf-jdbc"));
        }
    }

    @Test
    void withoutADatabaseOrTheSwitchSegmentModeIsOffAndTheStartGoesOn() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SegmentAllocator.class));
    }

    @Test
    void anInjectedSegmentAllocatorIsExplainedByTheMissingModule() {
        runner.withUserConfiguration(NeedsSegmentIds.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new JdbcModuleMissingFailureAnalyzer(WITHOUT_LEAF_JDBC)
                    .analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("SegmentAllocator", "leaf-jdbc is not on the class path");
            assertThat(analysis.getAction()).contains("Add the dependency org.leafid:leaf-jdbc");
        });
    }

    @Test
    void withLeafJdbcPresentTheAnalyzerLeavesTheFailureToSpringBoot() {
        new ApplicationContextRunner().withUserConfiguration(NeedsSegmentIds.class)
                .run(context -> assertThat(new JdbcModuleMissingFailureAnalyzer().analyze(context.getStartupFailure()))
                        .isNull());
    }

    @Configuration(proxyBeanMethods = false)
    static class NeedsSegmentIds {

        @Bean
        String orderIds(SegmentAllocator segments) {
            return "order ids from " + segments;
        }
    }
}
