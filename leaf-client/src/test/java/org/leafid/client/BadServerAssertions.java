package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;

/** What the tests of a client with servers {@code [bad, good]} assert of the IDs and of the bad server. */
final class BadServerAssertions {

    private BadServerAssertions() {}

    static void assertAllValidAndDistinct(long[] ids, LongPredicate valid) {
        assertThat(Arrays.stream(ids).filter(valid.negate()).limit(5).toArray()).as("IDs that are not valid")
                .isEmpty();
        assertThat(Arrays.stream(ids).distinct().count()).as("distinct IDs").isEqualTo(ids.length);
    }

    static void assertIncreasing(long[] ids) {
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).as("segment and snowflake IDs increase").isGreaterThan(ids[i - 1]);
        }
    }

    /**
     * The bad server (the client's first) refused by one of {@code checks}: at least one of them
     * counted, its last failure one of them, and nothing counted against the good server.
     */
    static void assertBadServerCaughtBy(MeterRegistry registry, LeafClient leaf, String badUrl, String goodUrl,
            String... checks) {
        double counted = 0;
        for (String check : checks) {
            Counter counter = registry.find("leaf.client.bad.answers").tag("server", badUrl).tag("check", check)
                    .counter();
            counted += counter == null ? 0 : counter.count();
        }
        assertThat(counted).as("leaf_client_bad_answers_total{check in %s}", List.of(checks))
                .isGreaterThanOrEqualTo(1);
        ServerState state = leaf.servers().get(0);
        assertThat(state.url()).isEqualTo(badUrl);
        assertThat(List.of(checks)).anySatisfy(check ->
                assertThat(state.lastFailure()).contains("bad answer, check " + check));
        assertThat(registry.find("leaf.client.bad.answers").tag("server", goodUrl).counter())
                .as("the good server passes every check").isNull();
    }
}
