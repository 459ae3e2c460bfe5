package org.leafid.server.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link ProblemType} is the one list: no type is written anywhere else in the server's code, each
 * (type, status) is listed once, and the types named after a status are named as Spring MVC and
 * Tomcat's refusals of that status are ({@link ProblemType#namedAfter}). That the OpenAPI description
 * describes every one is {@code OpenApiTest}'s.
 */
class ProblemTypeTest {

    @Test
    void noProblemTypeIsWrittenOutsideTheList() throws IOException {
        List<Path> writers;
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            writers = sources.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> !path.endsWith(Path.of("org/leafid/server/problem/ProblemType.java")))
                    .filter(ProblemTypeTest::writesAType).toList();
        }
        assertThat(writers).as("sources with a \"urn:leaf:problem:…\" string of their own").isEmpty();
    }

    @Test
    void eachTypeAndStatusIsListedOnceAndWellFormed() {
        Set<String> seen = new HashSet<>();
        for (ProblemType type : ProblemType.values()) {
            assertThat(type.type()).as(type.name()).matches("[a-z]+(-[a-z]+)*");
            assertThat(type.uri().toString()).isEqualTo("urn:leaf:problem:" + type.type());
            assertThat(type.meaning()).as(type.name()).isNotBlank();
            assertThat(seen.add(type.type() + " " + type.status().value())).as(type.name()).isTrue();
        }
    }

    @Test
    void theTypesOfABareStatusAreNamedAsTheServerNamesThem() {
        for (ProblemType type : new ProblemType[] {ProblemType.BAD_REQUEST, ProblemType.UNAUTHORIZED,
                ProblemType.FORBIDDEN, ProblemType.NOT_FOUND, ProblemType.METHOD_NOT_ALLOWED,
                ProblemType.NOT_ACCEPTABLE, ProblemType.UNSUPPORTED_MEDIA_TYPE}) {
            assertThat(ProblemType.namedAfter(type.status().value())).as(type.name()).isEqualTo(type.type());
        }
        assertThat(ProblemType.namedAfter(599)).isEqualTo("http-599");
    }

    private static boolean writesAType(Path source) {
        try {
            return Files.readString(source).contains("\"urn:leaf:problem:");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
