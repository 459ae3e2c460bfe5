package org.leafid.server.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.Map;
import org.leafid.server.problem.ProblemType;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The description's title and version, the {@code Problem} schema, and for every operation under
 * {@code /api/} the problem+json answers with their types; the get endpoints' 200 answers, which
 * the controllers write themselves, as text (one ID per line) or a JSON array of strings.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    @Bean
    OpenAPI leafOpenApi(ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        return new OpenAPI()
                .info(new Info().title("Leaf").version(properties == null ? "development" : properties.getVersion())
                        .description("Leaf-compatible ID service: segment, snowflake and shard-mode IDs. Success "
                                + "answers are plain-text decimal IDs; errors are RFC 9457 problem+json with a stable "
                                + ProblemType.PREFIX + "* type. IDs exceed 2^53: read them as strings or 64-bit "
                                + "integers.\n\n" + allTypes()));
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

    @Bean
    OpenApiCustomizer leafProblemAnswers() {
        return openApi -> {
            // Here rather than on the OpenAPI bean: springdoc builds the components from the controllers.
            if (openApi.getComponents() == null) {
                openApi.setComponents(new Components());
            }
            openApi.getComponents().addSchemas("Problem", problemSchema());
            openApi.getPaths().forEach(OpenApiConfiguration::describe);
        };
    }

    /** Under /api/: the 200 of a get endpoint and the problem answers of every status with a type. */
    private static void describe(String path, PathItem item) {
        if (!path.startsWith("/api/")) {
            return;
        }
        for (Map.Entry<PathItem.HttpMethod, Operation> entry : item.readOperationsMap().entrySet()) {
            Operation operation = entry.getValue();
            ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
            if (entry.getKey() == PathItem.HttpMethod.GET && path.contains("/get/")) {
                responses.addApiResponse("200", idAnswer());
            }
            for (int status : new int[] {400, 401, 403, 404, 409, 503}) {
                String table = table(status);
                if (!responses.containsKey(Integer.toString(status)) && table.contains(ProblemType.PREFIX)) {
                    responses.addApiResponse(Integer.toString(status), problem(table));
                }
            }
            operation.setResponses(responses);
        }
    }

    private static ApiResponse idAnswer() {
        Content content = new Content()
                .addMediaType("text/plain", new MediaType().schema(new StringSchema()
                        .example("1234567890123456789").description("one ID, or with count=N one ID per line")))
                .addMediaType("application/json", new MediaType().schema(new ArraySchema()
                        .items(new StringSchema()).description("with count=N and Accept: application/json")));
        return new ApiResponse().description("The ID, or the batch of IDs").content(content);
    }

    private static ApiResponse problem(String table) {
        return new ApiResponse().description("problem+json; the types answered with this status:\n\n" + table)
                .content(new Content().addMediaType(PROBLEM_JSON,
                        new MediaType().schema(new Schema<>().$ref(PROBLEM_REF))));
    }

    private static Schema<?> problemSchema() {
        return new ObjectSchema().description("RFC 9457 problem details")
                .addProperty("type", new StringSchema().example(ProblemType.UNKNOWN_TAG.uri().toString()))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema().description("what a person can do about it"))
                .addProperty("instance", new StringSchema());
    }
}
