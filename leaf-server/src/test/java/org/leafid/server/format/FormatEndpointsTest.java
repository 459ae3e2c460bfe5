package org.leafid.server.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.leafid.core.format.CheckScheme;
import org.leafid.server.support.RunningServerTest;
import org.leafid.server.support.TestServerKeys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The formats' endpoints black-box: strings of a daily segment format and of a base-62 snowflake
 * format, as text, in batches and as JSON, with their pattern in a header; every string read back;
 * every malformed or mistyped value and every unknown format refused with a problem naming what is wrong.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class FormatEndpointsTest extends RunningServerTest {

    private static final String RUN = Long.toString(System.nanoTime(), 36);
    private static final String ORDER_TAG = "fmt-order-" + RUN;
    private static final String DAILY_TAG = "fmt-daily-" + RUN;
    private static final String NARROW_TAG = "fmt-narrow-" + RUN;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "formats");
        registry.add("leaf.snowflake.local.worker-id", () -> "11");
        registry.add("leaf.snowflake.port", () -> "18095");
        registry.add("leaf.formats.order.pattern", () -> "ORD{yyyy}{MM}{dd}{seq:6}{check}");
        registry.add("leaf.formats.order.reset", () -> "daily");
        registry.add("leaf.formats.order.tag", () -> ORDER_TAG);
        registry.add("leaf.formats.daily.pattern", () -> "ORD{yyyy}{MM}{dd}{seq:6}{check}");
        registry.add("leaf.formats.daily.reset", () -> "daily");
        registry.add("leaf.formats.daily.tag", () -> DAILY_TAG);
        registry.add("leaf.formats.narrow.pattern", () -> "N{yyyy}{MM}{dd}{seq:2}");
        registry.add("leaf.formats.narrow.reset", () -> "daily");
        registry.add("leaf.formats.narrow.tag", () -> NARROW_TAG);
        registry.add("leaf.formats.public-id.pattern", () -> "u{seq62:11}");
        registry.add("leaf.formats.public-id.source", () -> "snowflake");
    }

    @Test
    void aDailyFormatStartsAtOneAndEveryAnswerCarriesThePattern() {
        String today = LocalDate.now(ZoneOffset.UTC).format(DateTimeFormatter.BASIC_ISO_DATE);

        HttpResponse<String> first = http.get("/api/format/get/daily");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        assertThat(first.headers().firstValue("Leaf-Format")).hasValue("ORD{yyyy}{MM}{dd}{seq:6}{check}");
        assertThat(first.body()).isEqualTo(withCheck("ORD" + today + "000001"));
        assertThat(http.get("/api/format/get/daily?count=2").body())
                .isEqualTo(withCheck("ORD" + today + "000002") + "\n" + withCheck("ORD" + today + "000003") + "\n");
        HttpResponse<String> json = http.send("GET", "/api/format/get/daily?count=1", "Accept", "application/json");
        assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(json.body()).isEqualTo("[\"" + withCheck("ORD" + today + "000004") + "\"]");
        assertThat(DATABASE.number("SELECT COUNT(*) FROM leaf_alloc WHERE biz_tag = ?", DAILY_TAG + "@" + today))
                .as("the day's row, made on first use").isOne();
    }

    @Test
    void aStringIsReadBackWithItsPeriodNumberAndDate() {
        String value = http.get("/api/format/get/order").body();

        HttpResponse<String> decoded = http.get("/api/format/decode/order/" + value);

        assertThat(decoded.statusCode()).isEqualTo(200);
        assertThat(decoded.body()).contains("\"value\":\"" + value + "\"")
                .contains("\"period\":\"" + value.substring(3, 11) + "\"")
                .contains("\"sequence\":\"" + Long.parseLong(value.substring(11, 17)) + "\"")
                .contains("\"checkValid\":true").contains("\"yyyy\":" + value.substring(3, 7));
    }

    @Test
    void aSnowflakeFormatWritesTheIdInBase62() {
        String value = http.get("/api/format/get/public-id").body();

        assertThat(value).matches("u[0-9A-Za-z]{11}");
        HttpResponse<String> decoded = http.get("/api/format/decode/public-id/" + value);
        assertThat(decoded.body()).contains("\"period\":\"\"").doesNotContain("checkValid\":true");
        long id = Long.parseLong(decoded.body().replaceAll(".*\"sequence\":\"(\\d+)\".*", "$1"));
        assertThat(layout.decode(id).workerId()).as("an ID of this server's worker id").isEqualTo(11);
    }

    @Test
    void everyMalformedOrMistypedValueIsA400NamingWhatIsWrong() {
        String value = http.get("/api/format/get/order").body();
        char wrongCheck = value.charAt(17) == '0' ? '1' : '0';

        assertProblem(http.get("/api/format/decode/order/" + value.substring(0, 17) + wrongCheck), 400,
                "invalid-formatted-id", "wrong check character");
        assertProblem(http.get("/api/format/decode/order/" + value.substring(1)), 400, "invalid-formatted-id",
                "has 17 characters");
        assertProblem(http.get("/api/format/decode/order/X" + value.substring(1)), 400, "invalid-formatted-id",
                "does not have 'ORD'");
        assertProblem(http.get("/api/format/decode/order/" + value.substring(0, 12) + "A" + value.substring(13)),
                400, "invalid-formatted-id", "has no seq number");
        assertProblem(http.get("/api/format/decode/public-id/u!!!!!!!!!!!"), 400, "invalid-formatted-id", "");
        assertProblem(http.get("/api/format/get/order?count=0"), 400, "invalid-count", "");
    }

    @Test
    void aBatchLargerThanThePeriodCanStillHoldIsA400NamingTheRoomAndIssuesNothing() {
        String today = LocalDate.now(ZoneOffset.UTC).format(DateTimeFormatter.BASIC_ISO_DATE);

        assertProblem(http.get("/api/format/get/narrow?count=150"), 400, "format-room",
                "can issue 99 more numbers in period " + today);
        List<String> first = http.get("/api/format/get/narrow?count=50").body().lines().toList();
        assertThat(first).hasSize(50).startsWith("N" + today + "01").endsWith("N" + today + "50");
        assertProblem(http.get("/api/format/get/narrow?count=60"), 400, "format-room", "ask for at most 49");
        List<String> rest = http.get("/api/format/get/narrow?count=49").body().lines().toList();
        assertThat(rest).hasSize(49).startsWith("N" + today + "51").endsWith("N" + today + "99");
        assertThat(new HashSet<>(first)).doesNotContainAnyElementsOf(rest);
        // Only now is the period spent: the refused batches burned nothing.
        assertProblem(http.get("/api/format/get/narrow"), 503, "format-exhausted", "period " + today);
    }

    @Test
    void anUnknownFormatIsA404NamingTheKeyToSet() {
        assertProblem(http.get("/api/format/get/nope"), 404, "unknown-format", "leaf.formats.nope.pattern");
        assertProblem(http.get("/api/format/decode/nope/X1"), 404, "unknown-format", "leaf.formats.nope.pattern");
        assertProblem(http.get("/api/format/get/a%20b"), 400, "invalid-key", "");
        assertThat(http.get("/api/format/nothing-here").statusCode()).isEqualTo(404);
    }

    private static String withCheck(String text) {
        return text + CheckScheme.LUHN_MOD_10.checkOf(text, text.length());
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type, String detail) {
        assertThat(response.statusCode()).as(response.uri().toString()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                value -> assertThat(value).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:leaf:problem:" + type + "\"").contains(detail)
                .doesNotContain("Exception", "at org.");
    }
}
