package org.leafid.server.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two servers, one format name and tag, two patterns (issue 44's second case, a fleet mid-rollout of
 * a changed pattern): the first server to use the tag records its definition in leaf_format; the
 * second, whose pattern differs, answers 503 format-conflict naming both definitions and says so at
 * start, and serves nothing. A third server with the recorded definition serves on, and every string
 * of the two that serve is distinct.
 */
@ExtendWith(OutputCaptureExtension.class)
class FormatDefinitionFleetTest {

    private static final TestDatabase DATABASE = TestDatabase.get();
    private static final String MONTHLY = "{yyyy}{MM}{seq:4}";
    private static final String DAILY = "{yyyy}{MM}{dd}{seq:2}";

    @TempDir
    Path dataDir;

    @Test
    void aServerWhosePatternDiffersFromTheRecordedOneServesNothingAndSaysWhy(CapturedOutput output) {
        String tag = "fmt-def-" + UUID.randomUUID().toString().substring(0, 8);
        try (ConfigurableApplicationContext first = start("a", tag, MONTHLY, "monthly");
                ConfigurableApplicationContext second = start("b", tag, DAILY, "daily");
                ConfigurableApplicationContext third = start("c", tag, MONTHLY, "monthly")) {
            Set<String> issued = new HashSet<>();
            List<String> fromFirst = http(first).get("/api/format/get/o?count=600").body().lines().toList();
            assertThat(fromFirst).hasSize(600);
            issued.addAll(fromFirst);

            HttpResponse<String> refused = http(second).get("/api/format/get/o?count=50");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("urn:leaf:problem:format-conflict", "pattern=" + DAILY,
                    "pattern=" + MONTHLY, "leaf.formats.o.tag");
            assertThat(http(second).get("/api/format/get/o").statusCode()).isEqualTo(503);

            List<String> fromThird = http(third).get("/api/format/get/o?count=100").body().lines().toList();
            assertThat(fromThird).hasSize(100);
            issued.addAll(fromThird);
            assertThat(issued).as("strings of the two servers that serve").hasSize(700);
        }
        assertThat(output.toString().lines().filter(line -> line.contains("format 'o' is defined here as pattern="
                + DAILY)).filter(line -> line.contains("WARN"))).as("the second server's WARN").hasSize(1);
        assertThat(DATABASE.number("SELECT COUNT(*) FROM leaf_format WHERE tag = ? AND definition LIKE ?", tag,
                "pattern=" + MONTHLY + "%")).isOne();
    }

    private ConfigurableApplicationContext start(String name, String tag, String pattern, String reset) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--leaf.snowflake.enable=false",
                "--leaf.data-dir=" + dataDir.resolve(name), "--leaf.formats.o.pattern=" + pattern,
                "--leaf.formats.o.reset=" + reset, "--leaf.formats.o.tag=" + tag, "--leaf.formats.o.zone=UTC"));
        for (Map.Entry<String, Object> property : DATABASE.serverProperties().entrySet()) {
            arguments.add("--" + property.getKey() + "=" + property.getValue());
        }
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static Http http(ConfigurableApplicationContext server) {
        return new Http(server.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }
}
