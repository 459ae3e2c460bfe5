package org.leafid.server.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import org.leafid.server.problem.ProblemType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI 3 description the server publishes: the paths, parameters and bodies written by hand
 * in {@code leaf-openapi.json} beside this class (a test holds it to the controllers' mappings),
 * completed here from {@link ProblemType}, so that the problem answers have one source: the list
 * of every type, the problem+json answers of each {@code /api/} operation by status, the
 * {@code Problem} schema, and the get endpoints' 200 answers.
 */
final class OpenApiDescription {

    static final String FILE = "leaf-openapi.json";
    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String PROBLEM_REF = "#/components/schemas/Problem";
    private static final int[] PROBLEM_STATUSES = {400, 401, 403, 404, 409, 429, 503};

    private OpenApiDescription() {}

    /** The completed description as JSON, for the server's {@code version}. */
    static byte[] build(JsonMapper json, String version) {
        ObjectNode description;
        try (InputStream file = OpenApiDescription.class.getResourceAsStream(FILE)) {
            if (file == null) {
                throw new IllegalStateException(FILE + " is missing from the server jar");
            }
            description = (ObjectNode) json.readTree(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + FILE, e);
        }
        ObjectNode info = description.putObject("info");
        info.put("title", "Leaf").put("version", version).put("description", "Leaf-compatible ID service: segment, "
                + "snowflake and shard-mode IDs. Success answers are plain-text decimal IDs; errors are RFC 9457 "
                + "problem+json with a stable " + ProblemType.PREFIX + "* type. IDs exceed 2^53: read them as strings "
                + "or 64-bit integers.\n\n" + allTypes());
        ((ObjectNode) description.get("components").get("schemas")).set("Problem", problemSchema(json));
        for (Map.Entry<String, JsonNode> path : description.get("paths").properties()) {
            if (path.getKey().startsWith("/api/")) {
                for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                    describe(path.getKey(), operation.getKey(), (ObjectNode) operation.getValue());
                }
            }
        }
        return json.writeValueAsBytes(description);
    }

    /**
     * Every type the server answers with: those of an operation's answers are listed there again, by
     * status; this list also has the ones any path can meet (a wrong method, an unacceptable Accept).
     */
    private static String allTypes() {
        StringBuilder table = new StringBuilder("Problem types:\n\n| type | status | meaning |\n|---|---|---|\n");
        for (ProblemType type : ProblemType.values()) {
            table.append("| `").append(type.uri()).append("` | ").append(type.status().value()).append(" | ")
                    .append(type.meaning()).append(" |\n");
        }
        return table.append("\nAny other answer Spring MVC or Tomcat give by themselves has a type named after its "
                + "status, e.g. `").append(ProblemType.PREFIX).append(ProblemType.namedAfter(414)).append("`.")
                .toString();
    }

    /** The 200 of a get endpoint and the problem answers of every status that has a type. */
    private static void describe(String path, String method, ObjectNode operation) {
        ObjectNode responses = operation.has("responses") ? (ObjectNode) operation.get("responses")
                : operation.putObject("responses");
        if (method.equals("get") && path.contains("/get/")) {
            ObjectNode content = responses.putObject("200").put("description", "The ID, or the batch of IDs")
                    .putObject("content");
            content.putObject("text/plain").putObject("schema").put("type", "string")
                    .put("example", "1234567890123456789").put("description", "one ID, or with count=N one ID per line");
            ObjectNode array = content.putObject("application/json").putObject("schema").put("type", "array")
                    .put("description", "with count=N and Accept: application/json");
            array.putObject("items").put("type", "string");
            if (path.startsWith("/api/segment/") || path.startsWith("/api/shard/")) {
                rangesAnswer(content.putObject("application/vnd.leaf.ranges+json").putObject("schema"));
            }
        }
        for (int status : PROBLEM_STATUSES) {
            String table = table(status);
            if (!responses.has(Integer.toString(status)) && table.contains(ProblemType.PREFIX)) {
                responses.putObject(Integer.toString(status))
                        .put("description", "problem+json; the types answered with this status:\n\n" + table)
                        .putObject("content").putObject(PROBLEM_JSON).putObject("schema").put("$ref", PROBLEM_REF);
            }
        }
    }

    /** A segment or shard batch as ranges: {@code {"count":N,["stride":"S",]"ranges":[["first","last"],...]}}. */
    private static void rangesAnswer(ObjectNode schema) {
        schema.put("type", "object").put("description", "with count=N and Accept: application/vnd.leaf.ranges+json: "
                + "the batch as runs of IDs, [first, last] inclusive, in the order issued; the runs add up to count. "
                + "A run's IDs step by stride (shard mode: 16384, consecutive indexes of one shard), else by 1. A "
                + "server that does not know the type, and an opaque shard app, answer one ID per line.");
        schema.putArray("required").add("count").add("ranges");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("count").put("type", "integer").put("description", "the IDs in all, as asked for");
        properties.putObject("stride").put("type", "string").put("description", "what a run's IDs step by, when not 1");
        ObjectNode run = properties.putObject("ranges").put("type", "array").putObject("items").put("type", "array")
                .put("minItems", 2).put("maxItems", 2).put("description", "first and last ID of a run, as strings");
        run.putObject("items").put("type", "string");
        schema.putObject("example").put("count", 1000).putArray("ranges").addArray().add("4001").add("5000");
    }

    /** A Markdown table of the types with a status, for a response's description. */
    private static String table(int status) {
        StringBuilder table = new StringBuilder("| type | meaning |\n|---|---|\n");
        for (ProblemType type : ProblemType.values()) {
            if (type.status().value() == status) {
                table.append("| `").append(type.uri()).append("` | ").append(type.meaning()).append(" |\n");
            }
        }
        return table.toString();
    }

    private static ObjectNode problemSchema(JsonMapper json) {
        ObjectNode schema = json.createObjectNode().put("type", "object").put("description", "RFC 9457 problem details");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("type").put("type", "string").put("example", ProblemType.UNKNOWN_TAG.uri().toString());
        properties.putObject("title").put("type", "string");
        properties.putObject("status").put("type", "integer");
        properties.putObject("detail").put("type", "string").put("description", "what a person can do about it");
        properties.putObject("instance").put("type", "string");
        return schema;
    }
}
