package org.leafid.server.web;

import org.springframework.context.annotation.Profile;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The yardstick of {@code leaf-bench/http-bench.sh}: an endpoint that issues nothing but answers
 * exactly as the single-ID endpoints do ({@link IdAnswers#single}), so that its req/s is what the
 * web server itself costs. Exists only with the {@code bench} profile.
 */
@RestController
@Profile("bench")
class BenchNoopController {

    @GetMapping("/bench/noop")
    void noop(HttpServletResponse response) throws IOException {
        IdAnswers.single(response, 0);
    }
}
