package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.leafid.server.fault.HostileRequests.Hostile;

/**
 * Hostile requests, sent byte for byte, one at a time: each must get its 4xx, every JSON body
 * must be problem+json with a type, no body may show a stack trace or an internal detail, and
 * no {@code leaf_alloc} row may change. Answers that Tomcat gives itself (before the
 * application sees the request) are listed as such.
 */
final class BadInputScenario {

    /** What no answer may contain: stack traces, class and package names, SQL, the token. */
    static final List<String> FORBIDDEN = List.of("Exception", "at org.", "at java.", "org.leafid", "org.springframework",
            "org.apache", "java.lang", "SQLState", "SELECT ", "UPDATE leaf_alloc", "INSERT INTO", "jdbc:", "biz_tag",
            "Caused by", "<img", "<script");

    private BadInputScenario() {}

    static void run(FaultContext context, ServerProcess server, String tag, String token, ScenarioResult result)
            throws Exception {
        List<Hostile> requests = HostileRequests.all(tag, token);
        List<String> before = context.database.snapshot();
        List<String> failures = new ArrayList<>();
        Map<String, List<String>> notProblems = new TreeMap<>();
        Map<String, Long> answers = new TreeMap<>();
        StringBuilder table = new StringBuilder("| request | sent | status | content type | problem type |\n|---|---|---|---|---|\n");
        for (Hostile hostile : requests) {
            RawHttp.Response response = RawHttp.send(server.port(), hostile.method(), hostile.target(), hostile.headers(),
                    hostile.body());
            String type = response.problemType();
            String label = response.status() + " " + (response.isProblem() && type != null
                    ? type.replace("urn:leaf:problem:", "") : "not problem+json");
            answers.merge(label, 1L, Long::sum);
            table.append("| ").append(hostile.name()).append(" | `").append(hostile.method()).append(' ')
                    .append(abbreviate(hostile.target())).append("` | ").append(response.status()).append(" | ")
                    .append(response.contentType()).append(" | ").append(type == null ? "—" : type).append(" |\n");
            failures.addAll(check(hostile, response, token));
            if (!response.isProblem()) {
                notProblems.computeIfAbsent(source(response), k -> new ArrayList<>()).add(String.format(Locale.ROOT,
                        "%s → %d", hostile.name(), response.status()));
            }
        }
        List<String> after = context.database.snapshot();
        Path details = context.fleet.logs().resolve(context.runId + "-bad-input.md");
        Files.writeString(details, table.toString(), StandardCharsets.UTF_8);

        result.load = requests.size() + " hostile requests, one at a time";
        result.fault = "bad input: over-long, non-ASCII, NUL, traversal, SQL injection, bad count/id, bad "
                + "percent-encoding in queries, 20 KB headers, wrong methods, unknown paths, hidden actuator "
                + "endpoints, bad tokens (decode included), malformed admin JSON, fields given twice, control "
                + "characters";
        result.errors = ScenarioResult.errors(answers);
        result.recovery = before.equals(after) ? "all " + before.size() + " leaf_alloc rows unchanged"
                : "leaf_alloc CHANGED";
        result.note("Every answer was the expected 4xx%s; the request-by-request table is in `leaf-server/target/"
                + "fault-logs/<run>-bad-input.md`.", failures.isEmpty() ? "" : ", except: " + String.join("; ", failures));
        notProblems.forEach((source, which) -> result.note("Not problem+json, %s: %s.", source,
                String.join("; ", which)));

        assertThat(requests).hasSizeGreaterThanOrEqualTo(30);
        assertThat(failures).as("hostile requests answered wrongly").isEmpty();
        assertThat(after).as("leaf_alloc after the hostile requests").isEqualTo(before);
    }

    private static List<String> check(Hostile hostile, RawHttp.Response response, String token) {
        List<String> failures = new ArrayList<>();
        String what = hostile.name() + " answered " + response.status();
        if (!hostile.statuses().contains(response.status())) {
            failures.add(what + ", expected " + new TreeSet<>(hostile.statuses()) + " (body '"
                    + abbreviate(response.body()) + "')");
        }
        if (response.isJson() && (!response.isProblem() || response.problemType() == null)) {
            failures.add(what + " with JSON that is not problem+json with a type: " + response.contentType());
        }
        if (hostile.type() != null && !response.isProblem()) {
            failures.add(what + " without problem+json: " + response.contentType());
        } else if (hostile.type() != null && !"*".equals(hostile.type())
                && !("urn:leaf:problem:" + hostile.type()).equals(response.problemType())) {
            failures.add(what + " with type " + response.problemType() + ", expected " + hostile.type());
        }
        for (String forbidden : FORBIDDEN) {
            if (response.body().contains(forbidden)) {
                failures.add(what + " with '" + forbidden + "' in the body: " + abbreviate(response.body()));
            }
        }
        if (response.body().contains(token)) {
            failures.add(what + " with the admin token in the body");
        }
        return failures;
    }

    /** Who wrote an answer that is not problem+json, told by its shape. */
    static String source(RawHttp.Response response) {
        if (response.body().startsWith("<!doctype html><html lang=\"en\"><head><title>HTTP Status")) {
            return "Tomcat's own HTML error page (`text/html`, title only, e.g. \"HTTP Status 400 – Bad Request\"; "
                    + "the request never reached the application)";
        }
        if (response.body().startsWith("{\"timestamp\"")) {
            return "Spring Boot's `/error` JSON (`application/json`, `{\"timestamp\",\"status\",\"error\",\"path\"}`: "
                    + "Tomcat's sendError, not the application's handlers)";
        }
        if (response.body().isEmpty()) {
            return "empty body from the application (no content type)";
        }
        return "unknown writer (" + response.contentType() + ")";
    }

    static String abbreviate(String text) {
        String flat = text.replace("\r", "").replace("\n", " ").replace("|", "\\|").replace("`", "'");
        return flat.length() <= 100 ? flat : flat.substring(0, 60) + "…(" + flat.length() + " chars)";
    }
}
