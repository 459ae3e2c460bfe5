package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.leafid.server.LeafServerApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code leaf.http.fast-path=false}: every get request goes through Spring MVC, with the same answers. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {LeafServerApplication.class, IdGetEndpointsContract.HandlerCount.class},
        properties = "leaf.http.fast-path=false")
class IdFastPathOffTest extends IdGetEndpointsContract {

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        serverOnTheTestDatabase(registry, 18_092);
    }

    @Test
    void everyGetGoesThroughSpringMvcWithTheSameAnswers() {
        String tag = newServedTag("slow-taken", 1, 1000);
        int before = handled.get();

        http.getId("/api/segment/get/" + tag);
        http.getId("/api/snowflake/get/k");

        assertThat(handled.get()).isEqualTo(before + 2);
        answersAsTheControllersDo();
    }
}
