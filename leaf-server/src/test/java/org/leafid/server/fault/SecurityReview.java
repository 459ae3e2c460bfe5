package org.leafid.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The security review, as checks: only health, info and prometheus exposed; the admin API and
 * the clock hook absent unless configured; the admin token never in the log; SQL only through
 * bound parameters; the token compared in constant time.
 */
final class SecurityReview {

    private static final Set<String> EXPOSED = Set.of("self", "health", "health-path", "info", "prometheus");

    private SecurityReview() {}

    static void run(FaultContext context, ServerProcess withToken, String token, ScenarioResult result)
            throws Exception {
        ServerProcess plain = context.fleet.server("security-no-token", context.baseArguments("security"), Map.of());
        plain.start().awaitReady(Duration.ofSeconds(90));
        List<String> checks = new ArrayList<>();

        for (ServerProcess server : List.of(plain, withToken)) {
            RawHttp.Response discovery = RawHttp.send(server.port(), "GET", "/actuator", List.of(), null);
            Set<String> links = new TreeSet<>();
            Matcher link = Pattern.compile("\"([a-z-]+)\"\\s*:\\s*\\{\\s*\"href\"").matcher(discovery.body());
            while (link.find()) {
                links.add(link.group(1));
            }
            assertThat(discovery.status()).isEqualTo(200);
            assertThat(links).as("actuator endpoints of " + server.name()).isNotEmpty().isSubsetOf(EXPOSED);
            checks.add("`/actuator` of " + server.name() + " lists only " + links);
        }

        RawHttp.Response unknown = RawHttp.send(plain.port(), "GET", "/api/nothing-here", List.of(), null);
        for (String[] request : new String[][] {{"POST", "/api/admin/tags"}, {"PUT", "/api/admin/tags/x/step"},
                {"POST", "/api/admin/refresh"}, {"GET", "/api/admin/tags"}}) {
            for (List<String> headers : List.of(List.<String>of(), List.of("Authorization: Bearer " + token))) {
                RawHttp.Response response = RawHttp.send(plain.port(), request[0], request[1],
                        headers.isEmpty() ? List.of("Content-Type: application/json") : List.of(headers.get(0),
                                "Content-Type: application/json"), "{\"tag\":\"fault-x\",\"step\":1}");
                assertThat(response.status()).as(String.join(" ", request) + " without a configured token")
                        .isEqualTo(unknown.status()).isEqualTo(404);
                assertThat(response.problemType()).isEqualTo(unknown.problemType());
            }
        }
        checks.add("without `leaf.admin.token` every admin path answers 404 `" + unknown.problemType()
                + "`, exactly like an unknown path, with or without a bearer token");

        RawHttp.Response clock = RawHttp.send(plain.port(), "POST", "/fault/clock?offsetMillis=-10000", List.of(), "");
        assertThat(clock.status()).as("/fault/clock without the fault-injection profile").isEqualTo(404);
        checks.add("without the `fault-injection` profile `POST /fault/clock` answers 404");

        RawHttp.Response right = RawHttp.send(withToken.port(), "POST", "/api/admin/refresh",
                List.of("Authorization: Bearer " + token), "");
        RawHttp.Response wrong = RawHttp.send(withToken.port(), "POST", "/api/admin/refresh",
                List.of("Authorization: Bearer " + token.substring(0, token.length() - 1) + "?"), "");
        assertThat(right.status()).isEqualTo(200);
        assertThat(wrong.status()).isEqualTo(403);
        String log = withToken.logText();
        assertThat(log).as("server log").doesNotContain(token).doesNotContain(token.substring(0, token.length() - 1))
                .contains("wrong token");
        checks.add("after right and wrong tokens (and the bad-input run), the log of " + withToken.name() + " ("
                + log.lines().count() + " lines) contains neither the token nor a near miss of it, and does log the "
                + "refusals");

        // From an address of its own (127.0.0.3): the 20 wrong tokens an address may send within a minute are
        // this loop's, and 127.0.0.1 keeps the admin API for the rest of the suite.
        String guesser = "127.0.0.3";
        long warnedBefore = withToken.logText().lines().filter(line -> line.contains("wrong token")).count();
        for (int i = 0; i < 20; i++) {
            assertThat(RawHttp.sendFrom(guesser, withToken.port(), "POST", "/api/admin/refresh",
                    List.of("Authorization: Bearer wrong-" + i), "").status()).isEqualTo(403);
        }
        long warned = withToken.logText().lines().filter(line -> line.contains("wrong token")).count() - warnedBefore;
        assertThat(warned).as("log lines for 20 wrong tokens at once").isLessThanOrEqualTo(1);
        checks.add("20 more wrong tokens at once added " + warned + " log line(s): wrong-token warnings are "
                + "throttled (one per 10 s, with the count left out), so anyone cannot fill the log");
        int limited = 0;
        for (int i = 0; i < 2_000; i++) {
            RawHttp.Response guess = RawHttp.sendFrom(guesser, withToken.port(), "POST", "/api/admin/refresh",
                    List.of("Authorization: Bearer guess-" + i), "");
            assertThat(guess.status()).as("guess %d after 20 wrong tokens", i).isEqualTo(429);
            limited++;
        }
        RawHttp.Response rightFromGuesser = RawHttp.sendFrom(guesser, withToken.port(), "POST", "/api/admin/refresh",
                List.of("Authorization: Bearer " + token), "");
        assertThat(rightFromGuesser.status()).as("the right token from the limited address").isEqualTo(429);
        assertThat(rightFromGuesser.problemType()).isEqualTo("urn:leaf:problem:too-many-wrong-tokens");
        assertThat(rightFromGuesser.headers()).containsKey("retry-after");
        assertThat(RawHttp.send(withToken.port(), "POST", "/api/admin/refresh",
                List.of("Authorization: Bearer " + token), "").status()).as("the right token from 127.0.0.1")
                .isEqualTo(200);
        checks.add("then " + limited + " more guesses from that address were answered 429 `too-many-wrong-tokens` "
                + "(with Retry-After), the right token included, while the right token from another address got 200");

        List<Path> mappers = mapperSources();
        List<String> interpolating = mappers.stream().filter(file -> read(file).contains("${"))
                .map(Path::toString).toList();
        assertThat(mappers).as("MyBatis mapper sources found").hasSizeGreaterThanOrEqualTo(2);
        assertThat(interpolating).as("mappers with ${…} string substitution").isEmpty();
        checks.add("no `${` in the " + mappers.size() + " MyBatis mapper sources ("
                + mappers.stream().map(p -> p.getFileName().toString()).sorted().toList() + "): SQL only through #{…}");

        List<Path> comparing = javaSources(TestDatabase.repoFile("leaf-server/src/main/java/org/leafid/server/admin"))
                .filter(file -> read(file).contains("MessageDigest.isEqual(")).toList();
        assertThat(comparing).as("admin sources comparing the token with MessageDigest.isEqual").isNotEmpty();
        checks.add("the admin token is compared with `MessageDigest.isEqual` (constant time) in "
                + comparing.stream().map(p -> p.getFileName().toString()).toList());
        plain.stop();

        result.load = "—";
        result.fault = "security review";
        result.errors = "none";
        result.recovery = checks.size() + " checks passed";
        checks.forEach(check -> result.note("%s", check));
    }

    /** Java sources with MyBatis annotations, and XML mappers, in the main sources of every module. */
    static List<Path> mapperSources() {
        Path root = TestDatabase.repoFile("sql").getParent(); // the repository root, which holds sql/
        try (Stream<Path> files = Files.walk(root).filter(path -> path.toString().contains("/src/main/"))) {
            return files.filter(Files::isRegularFile).filter(file -> {
                String name = file.getFileName().toString();
                return (name.endsWith(".java") && read(file).contains("org.apache.ibatis.annotations"))
                        || (name.endsWith(".xml") && read(file).contains("mybatis.org//DTD Mapper"));
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<Path> javaSources(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(file -> file.toString().endsWith(".java")).toList().stream();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
