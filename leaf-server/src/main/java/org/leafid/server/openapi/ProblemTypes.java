package org.leafid.server.openapi;

import java.util.List;

/** The problem types the server answers with, for the description; the handlers are the source. */
final class ProblemTypes {

    record Type(String name, int status, String meaning) {}

    static final List<Type> ALL = List.of(
            new Type("invalid-key", 400, "a tag or key outside [A-Za-z0-9._:-]{1,128}"),
            new Type("invalid-count", 400, "count is not a whole number in 1..leaf.max-batch"),
            new Type("invalid-id", 400, "an ID to decode is not a decimal 64-bit number, or one the mode never issues"),
            new Type("invalid-app-id", 400, "a shard-mode app id outside 0..255"),
            new Type("invalid-gate-pass", 400, "a gate pass the server does not accept"),
            new Type("invalid-request", 400, "an admin request body that does not match its schema (a field twice, "
                    + "control characters in a name or description)"),
            new Type("bad-request", 400, "the query string is not valid percent-encoded UTF-8, or Tomcat refused "
                    + "the request line or headers"),
            new Type("unauthorized", 401, "an admin call without the bearer token"),
            new Type("forbidden", 403, "an admin call, or a shard decode, with a wrong token"),
            new Type("unknown-tag", 404, "the tag has no leaf_alloc row"),
            new Type("unknown-app", 404, "the app has no id_alloc rows"),
            new Type("unknown-shard", 404, "the gate pass's shard has no id_alloc row"),
            new Type("mode-disabled", 404, "the mode is switched off on this server"),
            new Type("tag-exists", 409, "the tag exists already"),
            new Type("app-exists", 409, "the app exists already"),
            new Type("below-high-water", 409, "the tag or app reserved numbers above the maxId asked for before"),
            new Type("app-mode-conflict", 409, "the app's recorded mode (plain or opaque) is not this server's"),
            new Type("segment-not-ready", 503, "the tag list is not loaded yet (Retry-After)"),
            new Type("store-unavailable", 503, "the database does not answer and the buffers are empty (Retry-After)"),
            new Type("tag-exhausted", 503, "the tag reached its max_id: an operator must act"),
            new Type("app-limit-reached", 503, "the app reached max_limit_id (no Retry-After)"),
            new Type("app-mode-conflict", 503, "this server's mode (plain or opaque key) is not the app's (no Retry-After)"),
            new Type("clock-moved-backwards", 503, "the server clock moved back beyond tolerance (Retry-After)"),
            new Type("worker-id-unavailable", 503, "the worker id is not safe to use (Retry-After)"),
            new Type("timestamp-out-of-range", 503, "the snowflake layout's time field is spent"),
            new Type("interrupted", 503, "the server is shutting down (Retry-After)"),
            new Type("unavailable", 503, "no ID could be issued (Retry-After)"),
            new Type("internal", 500, "an internal error; see the server log"));

    private ProblemTypes() {}

    /** A Markdown table of the types with a status, for a response's description. */
    static String table(int status) {
        StringBuilder table = new StringBuilder("| type | meaning |\n|---|---|\n");
        for (Type type : ALL) {
            if (type.status() == status) {
                table.append("| `urn:leaf:problem:").append(type.name()).append("` | ").append(type.meaning())
                        .append(" |\n");
            }
        }
        return table.toString();
    }
}
