package org.leafid.server.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The hostile requests of the bad-input scenario and the answer each must get: a 4xx status
 * and the problem type (every answer is problem+json, Tomcat's own refusals included).
 */
final class HostileRequests {

    /**
     * @param statuses the acceptable statuses
     * @param type the problem type after {@code urn:leaf:problem:} the answer must carry, {@code "*"}
     *     for any problem type, or null where the answer need not be problem+json (none now:
     *     even what Tomcat refuses itself goes through Leaf's error report valve)
     */
    record Hostile(String name, String method, String target, List<String> headers, String body,
            Set<Integer> statuses, String type) {}

    private final List<Hostile> all = new ArrayList<>();

    private HostileRequests() {}

    /** Every request; {@code tag} exists, {@code token} is the admin token. */
    static List<Hostile> all(String tag, String token) {
        HostileRequests r = new HostileRequests();
        String auth = "Authorization: Bearer " + token;
        String json = "Content-Type: application/json";
        String seg = "/api/segment/get/";
        String snow = "/api/snowflake/get/";
        // Tags and keys: too long, non-ASCII, NUL, traversal, injection, markup.
        r.get("tag of 129 characters", seg + "a".repeat(129), 400, "invalid-key");
        r.get("key of 129 characters", snow + "k".repeat(129), 400, "invalid-key");
        r.get("tag of 4,000 characters", seg + "a".repeat(4000), 400, "invalid-key");
        r.get("non-ASCII tag, percent-encoded UTF-8", seg + "%C3%A9t%C3%A9", 400, "invalid-key");
        r.get("non-ASCII key, percent-encoded UTF-8", snow + "%E4%B8%AD%E6%96%87", 400, "invalid-key");
        r.add("non-ASCII tag, raw UTF-8 bytes", "GET", seg + "ключ", List.of(), null, Set.of(400), "*");
        r.add("NUL byte %00 in the tag", "GET", seg + "a%00b", List.of(), null, Set.of(400), "*");
        r.add("raw ../ traversal", "GET", seg + "../../../etc/passwd", List.of(), null, Set.of(400, 404), "*");
        r.add("raw ../ above the root", "GET", "/../../etc/passwd", List.of(), null, Set.of(400, 404), "*");
        r.add("%2e%2e%2f encoded traversal", "GET", seg + "%2e%2e%2f%2e%2e%2fetc%2fpasswd", List.of(), null,
                Set.of(400, 404), "*");
        r.add("%2e%2e segments to /actuator/env", "GET", seg + "%2e%2e/%2e%2e/%2e%2e/actuator/env", List.of(), null,
                Set.of(400, 404), "*");
        r.add("backslash traversal ..%5c", "GET", seg + "..%5c..%5cetc", List.of(), null, Set.of(400), "*");
        r.add("bad percent-encoding %zz", "GET", seg + "%zz", List.of(), null, Set.of(400), "*");
        r.get("SQL injection x' OR '1'='1 in the tag", seg + "x%27%20OR%20%271%27%3D%271", 400, "invalid-key");
        r.get("SQL injection '; DROP TABLE in the tag", seg + "x%27%3B%20DROP%20TABLE%20leaf_alloc%3B%20--", 400,
                "invalid-key");
        r.get("SQL injection in the key", snow + "1%20UNION%20SELECT%20*%20FROM%20leaf_alloc", 400, "invalid-key");
        r.get("SQL injection in the tags view", "/api/segment/tags/x%27%20OR%20%271%27%3D%271", 400, "invalid-key");
        r.get("markup in the tag", seg + "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", 400, "invalid-key");
        // count and id: negative, zero, over the maximum, huge, not a number.
        for (String count : List.of("-1", "0", "1001", "99999999999999999999", "abc", "1e3", "0x10", "", "%00",
                "1&count=2", "1%27%20OR%201%3D1")) {
            r.get("segment count=" + count, seg + tag + "?count=" + count, 400, "invalid-count");
        }
        // Bad percent-encoding in the query: Tomcat parses it when a parameter is first read.
        r.get("bad escape in count, %zz", seg + tag + "?count=%zz", 400, "bad-request");
        r.get("not UTF-8 in a parameter, %ff%fe", snow + "k?count=2&x=%ff%fe", 400, "bad-request");
        r.get("not UTF-8 in the query of /actuator/health", "/actuator/health?x=%ff", 400, "bad-request");
        r.get("snowflake count=-5", snow + "k?count=-5", 400, "invalid-count");
        r.get("snowflake count=1000000", snow + "k?count=1000000", 400, "invalid-count");
        r.get("decode of a word", "/api/snowflake/decode/abc", 400, "invalid-id");
        r.get("shard decode of index 0", "/api/shard/decode/7", 400, "invalid-id");
        r.add("shard decode with a wrong token", "GET", "/api/shard/decode/16385",
                List.of("Authorization: Bearer " + token + "x"), null, Set.of(403), "forbidden");
        r.get("not UTF-8 in the gate pass, %ff%fe", "/api/shard/get/1?gatePass=%ff%fe", 400, "bad-request");
        r.get("decode of a negative id", "/api/snowflake/decode/-1", 400, "invalid-id");
        r.get("decode beyond 2^63", "/api/snowflake/decode/99999999999999999999", 400, "invalid-id");
        // Headers.
        r.add("one header of 20 KB", "GET", snow + "k", List.of("X-Filler: " + "x".repeat(20 * 1024)), null,
                Set.of(400, 431), "*");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add("X-Filler-" + i + ": " + "y".repeat(200));
        }
        r.add("100 headers of 200 bytes", "GET", snow + "k", many, null, Set.of(400, 431), "*");
        r.add("request target of 20 KB", "GET", seg + "a".repeat(20 * 1024), List.of(), null, Set.of(400, 414, 431), "*");
        r.add("malformed Accept on a batch", "GET", snow + "k?count=2", List.of("Accept: ;;;/\"x"), null,
                Set.of(400, 406), "*");
        r.add("malformed Accept on an unknown path", "GET", "/api/nothing-here", List.of("Accept: ;;;/\"x"), null,
                Set.of(400, 404, 406), "*");
        r.add("two Content-Length headers", "POST", "/api/admin/tags", List.of(auth, json, "Content-Length: 5"),
                "{\"tag\":\"a\",\"step\":1}", Set.of(400), "*");
        r.add("Transfer-Encoding with Content-Length", "POST", "/api/admin/tags",
                List.of(auth, json, "Transfer-Encoding: chunked"), "0\r\n\r\n", Set.of(400), "*");
        // Methods and paths.
        r.add("POST on a get endpoint", "POST", seg + tag, List.of(), "", Set.of(405), "method-not-allowed");
        r.add("DELETE on a get endpoint", "DELETE", snow + "k", List.of(), null, Set.of(405), "method-not-allowed");
        r.add("PUT on a get endpoint", "PUT", seg + tag, List.of(json), "{}", Set.of(405), "method-not-allowed");
        r.add("PATCH on decode", "PATCH", "/api/snowflake/decode/1", List.of(), "", Set.of(405), "method-not-allowed");
        r.add("TRACE", "TRACE", seg + tag, List.of(), null, Set.of(405), "method-not-allowed");
        r.add("made-up method FOO", "FOO", seg + tag, List.of(), null, Set.of(405, 501), "*");
        r.get("unknown path", "/api/nothing-here", 404, "not-found");
        r.get("empty tag", seg, 404, "not-found");
        r.get("empty id to decode", "/api/snowflake/decode/", 404, "not-found");
        // Actuator endpoints that must not be exposed.
        for (String endpoint : List.of("env", "env/leaf.admin.token", "beans", "configprops", "mappings", "loggers",
                "heapdump", "threaddump", "metrics", "conditions", "scheduledtasks", "sbom")) {
            r.get("/actuator/" + endpoint, "/actuator/" + endpoint, 404, "not-found");
        }
        r.add("POST /actuator/shutdown", "POST", "/actuator/shutdown", List.of(), "", Set.of(404, 405), "*");
        // Admin: tokens and bodies.
        String valid = "{\"tag\":\"fault-never-created\",\"step\":10}";
        r.add("admin without Authorization", "POST", "/api/admin/tags", List.of(json), valid, Set.of(401),
                "unauthorized");
        r.add("admin with a wrong token", "POST", "/api/admin/tags",
                List.of("Authorization: Bearer wrong-" + token.substring(6), json), valid, Set.of(403), "forbidden");
        r.add("admin with Basic credentials", "POST", "/api/admin/tags",
                List.of("Authorization: Basic YWRtaW46YWRtaW4=", json), valid, Set.of(401), "unauthorized");
        r.add("admin with an empty Bearer", "POST", "/api/admin/refresh", List.of("Authorization: Bearer "), "",
                Set.of(401), "unauthorized");
        r.add("admin refresh with a wrong token", "POST", "/api/admin/refresh",
                List.of("Authorization: Bearer " + token + "x"), "", Set.of(403), "forbidden");
        r.admin("truncated JSON", "POST", "/api/admin/tags", auth, "{\"tag\":", 400, "invalid-request");
        r.admin("JSON array instead of an object", "POST", "/api/admin/tags", auth, "[]", 400, "invalid-request");
        r.admin("unknown field", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"step\":1,\"max_id\":5}", 400, "invalid-request");
        r.admin("SQL injection as the tag", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"x' OR '1'='1\",\"step\":10}", 400, "invalid-request");
        r.admin("negative step", "POST", "/api/admin/tags", auth, "{\"tag\":\"fault-x\",\"step\":-1}", 400,
                "invalid-request");
        r.admin("step of 10^12", "POST", "/api/admin/tags", auth, "{\"tag\":\"fault-x\",\"step\":1000000000000}", 400,
                "invalid-request");
        r.admin("step not a number", "POST", "/api/admin/tags", auth, "{\"tag\":\"fault-x\",\"step\":\"abc\"}", 400,
                "invalid-request");
        r.admin("negative maxId", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"step\":1,\"maxId\":-5}", 400, "invalid-request");
        r.admin("maxId of 2^63-1", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"step\":1,\"maxId\":9223372036854775807}", 400, "invalid-request");
        r.admin("description of 300 characters", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"step\":1,\"description\":\"" + "d".repeat(300) + "\"}", 400, "invalid-request");
        r.admin("JSON nested 5,000 deep", "POST", "/api/admin/tags", auth, "[".repeat(5000) + "]".repeat(5000), 400,
                "invalid-request");
        r.add("form body instead of JSON", "POST", "/api/admin/tags",
                List.of(auth, "Content-Type: application/x-www-form-urlencoded"), "tag=fault-x&step=1",
                Set.of(400, 415), "*");
        r.admin("injection in the step path", "PUT", "/api/admin/tags/x%27%20OR%201%3D1/step", auth, "{\"step\":5}",
                400, "invalid-key");
        r.admin("step 0 on an existing tag", "PUT", "/api/admin/tags/" + tag + "/step", auth, "{\"step\":0}", 400,
                "invalid-request");
        r.admin("create an existing tag", "POST", "/api/admin/tags", auth, "{\"tag\":\"" + tag + "\",\"step\":10}",
                409, "tag-exists");
        r.admin("a field given twice", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"tag\":\"fault-y\",\"step\":1}", 400, "invalid-request");
        r.admin("NUL in the description", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"step\":1,\"description\":\"a\\u0000b\"}", 400, "invalid-request");
        r.admin("line break and ESC in the description", "POST", "/api/admin/tags", auth,
                "{\"tag\":\"fault-x\",\"step\":1,\"description\":\"a\\r\\n\\u001b[31mb\"}", 400,
                "invalid-request");
        r.add("GET on a POST-only admin path", "GET", "/api/admin/tags", List.of(), null, Set.of(401, 405), "*");
        return List.copyOf(r.all);
    }

    private void get(String name, String target, int status, String type) {
        add(name, "GET", target, List.of(), null, Set.of(status), type);
    }

    private void admin(String name, String method, String target, String auth, String body, int status, String type) {
        add(name, method, target, List.of(auth, "Content-Type: application/json"), body, Set.of(status), type);
    }

    private void add(String name, String method, String target, List<String> headers, String body,
            Set<Integer> statuses, String type) {
        all.add(new Hostile(name, method, target, headers, body, statuses, type));
    }
}
