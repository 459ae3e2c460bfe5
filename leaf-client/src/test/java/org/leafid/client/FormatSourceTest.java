package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leafid.core.format.FormatPattern;
import org.leafid.core.format.ResetPeriod;
import org.leafid.testing.client.LeafAnswers;
import org.leafid.testing.client.SocketHttpServer;
import org.leafid.testing.client.SocketHttpServer.Responder;

/**
 * {@code nextString}: strings of a format prefetched in batches, each checked against the pattern
 * the servers answer with. A client with servers {@code [bad, good]} takes 5,000 strings; whatever
 * the bad one answers (no pattern, a mistyped check character, a repeat of an earlier answer,
 * garbage, a dripped or endless body), none of it is handed out, it is counted by the check that
 * caught it, and every string taken is valid and unique.
 */
class FormatSourceTest {

    private static final String PATTERN = "ORD{seq:8}{check}";
    private static final int STRINGS = 5_000;
    /** The good server numbers from 1; what the bad one sends is numbered from here. */
    private static final long BAD_FIRST = 90_000_001;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private SocketHttpServer good;
    private SocketHttpServer bad;
    private LeafClient leaf;

    @BeforeEach
    void startGoodServer() throws IOException {
        good = SocketHttpServer.start(LeafAnswers.formatted(PATTERN, 1));
    }

    @AfterEach
    void stop() throws IOException {
        if (leaf != null) {
            leaf.close();
        }
        if (bad != null) {
            bad.close();
        }
        good.close();
    }

    @Test
    void stringsComePrefetchedInBatchesAndCheckedAgainstThePattern() throws IOException {
        leaf = LeafClient.builder().servers(good.url()).meterRegistry(registry).build();

        List<String> taken = take("order");

        assertAllValidAndDistinct(taken);
        assertThat(taken.get(0)).startsWith("ORD00000001");
        assertThat(leaf.format("order").pattern().text()).isEqualTo(PATTERN);
        assertThat(good.requests()).as("requests for %d strings", STRINGS).isLessThan(STRINGS / 50);
        assertThat(registry.find("leaf.client.ids.fetched").tag("mode", "format").counter().count())
                .isGreaterThanOrEqualTo(STRINGS);
    }

    @Test
    void anAnswerWithoutThePatternIsRefused() throws IOException {
        withBad(LeafAnswers.formattedLines(null, request -> valid(BAD_FIRST, request.count())));
        assertAllValidAndDistinct(take("order"));
        assertBadServerCaughtBy("pattern");
    }

    @Test
    void aMistypedCheckCharacterIsRefused() throws IOException {
        withBad(LeafAnswers.formattedLines(PATTERN, request -> IntStream.range(0, request.count())
                .mapToObj(i -> {
                    String value = valid(BAD_FIRST + i, 1)[0];
                    char check = value.charAt(value.length() - 1);
                    return value.substring(0, value.length() - 1) + (check == '0' ? '1' : '0');
                }).toArray(String[]::new)));
        assertAllValidAndDistinct(take("order"));
        assertBadServerCaughtBy("format");
    }

    @Test
    void anAnswerRepeatingAnEarlierOneIsRefused() throws IOException {
        withBad(LeafAnswers.formattedLines(PATTERN, request -> valid(BAD_FIRST, request.count())));
        List<String> taken = take("order");
        assertAllValidAndDistinct(taken);
        assertThat(taken.stream().filter(value -> value.startsWith("ORD9")).count())
                .as("strings of the bad server's first answer, which repeated nothing").isLessThanOrEqualTo(100);
        assertBadServerCaughtBy("repeated");
    }

    @Test
    void garbageIsRefused() throws IOException {
        withBad(LeafAnswers.garbage());
        assertAllValidAndDistinct(take("order"));
        assertBadServerCaughtBy("pattern");
    }

    @Test
    void aDrippedBodyIsCutOffAtTheDeadline() throws IOException {
        bad = SocketHttpServer.start(LeafAnswers.drip(Duration.ofSeconds(1)));
        leaf = LeafClient.builder().servers(bad.url(), good.url()).requestTimeout(Duration.ofMillis(500))
                .maxWait(Duration.ofSeconds(10)).meterRegistry(registry).build();
        assertAllValidAndDistinct(take("order"));
        assertBadServerCaughtBy("deadline");
    }

    @Test
    void anEndlessBodyIsCutOffAtItsSize() throws IOException {
        withBad(LeafAnswers.endless());
        assertAllValidAndDistinct(take("order"));
        assertBadServerCaughtBy("size", "deadline");
    }

    @Test
    void aPatternThatChangesBetweenServersIsRefused() throws BadAnswerException {
        FormatAnswerCheck check = new FormatAnswerCheck("order");
        check.accept(PATTERN, lines(valid(1, 2)), 2);

        assertThatThrownBy(() -> check.accept("ORD{seq:9}", "ORD000000003\n".getBytes(StandardCharsets.US_ASCII), 1))
                .isInstanceOf(BadAnswerException.class).hasMessageContaining("ORD{seq:9}");
    }

    @Test
    void anUnknownFormatIsRefusedAtOnceNamingTheKey() throws IOException {
        bad = SocketHttpServer.start((request, out) -> {
            byte[] body = ("{\"type\":\"urn:leaf:problem:unknown-format\",\"status\":404,"
                    + "\"detail\":\"No format 'nope' is configured: set leaf.formats.nope.pattern\"}")
                    .getBytes(StandardCharsets.US_ASCII);
            out.write(("HTTP/1.1 404 X\r\nContent-Type: application/problem+json\r\nConnection: close\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        });
        leaf = LeafClient.builder().servers(bad.url()).build();

        assertThatThrownBy(() -> leaf.nextString("nope")).isInstanceOf(LeafRequestException.class)
                .hasMessageContaining("leaf.formats.nope.pattern");
    }

    private void withBad(Responder answers) throws IOException {
        bad = SocketHttpServer.start(answers);
        leaf = LeafClient.builder().servers(bad.url(), good.url()).requestTimeout(Duration.ofSeconds(5))
                .maxWait(Duration.ofSeconds(10)).meterRegistry(registry).build();
    }

    private List<String> take(String name) {
        return IntStream.range(0, STRINGS).mapToObj(i -> leaf.nextString(name)).toList();
    }

    /** {@code count} valid strings of the pattern from {@code first} on, as the good server would write them. */
    private static String[] valid(long first, int count) {
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            String text = "ORD" + String.format("%08d", first + i);
            values[i] = text + org.leafid.core.format.CheckScheme.LUHN_MOD_10.checkOf(text, text.length());
        }
        return values;
    }

    private static byte[] lines(String[] values) {
        return (String.join("\n", values) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static void assertAllValidAndDistinct(List<String> taken) {
        FormatPattern pattern = FormatPattern.parse(PATTERN);
        Set<String> distinct = new HashSet<>();
        for (String value : taken) {
            pattern.decode(value, ResetPeriod.NEVER);
            assertThat(distinct.add(value)).as("%s handed out twice", value).isTrue();
        }
        assertThat(distinct).hasSize(STRINGS);
    }

    private void assertBadServerCaughtBy(String... checks) {
        double counted = 0;
        for (String check : checks) {
            Counter counter = registry.find("leaf.client.bad.answers").tag("server", bad.url()).tag("check", check)
                    .counter();
            counted += counter == null ? 0 : counter.count();
        }
        assertThat(counted).as("leaf_client_bad_answers_total{check in %s}", List.of(checks)).isGreaterThanOrEqualTo(1);
    }
}
