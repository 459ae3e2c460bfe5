package org.leafid.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemTest {

    @Test
    void readsTypeAndDetailOfTheServersProblemJson() {
        Problem problem = Problem.parse(("{\"detail\":\"Tag 'a\\\"b' is not in leaf_alloc\\u0021\","
                + "\"instance\":\"/x\",\"status\":404,\"title\":\"Not Found\","
                + "\"type\" : \"urn:leaf:problem:unknown-tag\"}").getBytes(UTF_8));
        assertThat(problem.type()).isEqualTo("urn:leaf:problem:unknown-tag");
        assertThat(problem.detail()).isEqualTo("Tag 'a\"b' is not in leaf_alloc!");
        assertThat(Problem.shortType(problem.type())).isEqualTo("unknown-tag");
    }

    @Test
    void aBodyThatIsNotProblemJsonGivesAboutBlankAndTheBodysStart() {
        Problem problem = Problem.parse("<html>Bad Gateway</html>".getBytes(UTF_8));
        assertThat(problem.type()).isEqualTo("about:blank");
        assertThat(problem.detail()).isEqualTo("<html>Bad Gateway</html>");
    }

    @Test
    void refusalsGetTheSubclassOfTheirType() {
        assertThat(LeafRequestException.of(404, "urn:leaf:problem:unknown-tag", "d", null))
                .isInstanceOf(LeafUnknownKeyException.class);
        assertThat(LeafRequestException.of(404, "urn:leaf:problem:unknown-app", "d", null))
                .isInstanceOf(LeafUnknownKeyException.class);
        assertThat(LeafRequestException.of(400, "urn:leaf:problem:invalid-count", "d", null))
                .isInstanceOf(LeafInvalidInputException.class);
        assertThat(LeafRequestException.of(503, "urn:leaf:problem:app-limit-reached", "d", null))
                .isInstanceOf(LeafLimitReachedException.class);
        LeafRequestException other = LeafRequestException.of(401, "urn:leaf:problem:unauthorized", "who?", null);
        assertThat(other.getClass()).isEqualTo(LeafRequestException.class);
        assertThat(other.status()).isEqualTo(401);
        assertThat(other.detail()).isEqualTo("who?");
    }
}
