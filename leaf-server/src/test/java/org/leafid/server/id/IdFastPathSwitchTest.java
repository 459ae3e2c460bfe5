package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/**
 * {@code leaf.http.fast-path} switches the fast path as {@link HttpProperties} binds the key: the
 * condition and the record read one value the same way ({@code yes} is on in both).
 */
class IdFastPathSwitchTest {

    /** The get calls of the modes are off, so only the switch decides what is there. */
    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withUserConfiguration(IdGetCallsConfiguration.class)
            .withPropertyValues("leaf.segment.enable=false", "leaf.snowflake.enable=false", "leaf.shard.enable=false");

    @Test
    void onWhenUnset() {
        runner.run(context -> assertThat(context).hasBean("idFastPath"));
    }

    @Test
    void onForEveryWayTheBinderSpellsTrue() {
        for (String on : new String[] {"true", "yes", "on", "TRUE", "1"}) {
            runner.withPropertyValues("leaf.http.fast-path=" + on)
                    .run(context -> assertThat(context).as(on).hasBean("idFastPath"));
        }
    }

    @Test
    void offForEveryWayTheBinderSpellsFalse() {
        for (String off : new String[] {"false", "no", "off", "0"}) {
            runner.withPropertyValues("leaf.http.fast-path=" + off)
                    .run(context -> assertThat(context).as(off).doesNotHaveBean("idFastPath"));
        }
    }

    @Test
    void aValueThatIsNeitherStopsTheStartNamingTheKey() {
        runner.withPropertyValues("leaf.http.fast-path=sometimes").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("leaf.http.fast-path"));
    }
}
