package org.leafid.bench.http;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The yardstick of {@code http-bench.sh}: {@code GET /bench/noop} issues nothing but answers the
 * way the single-ID endpoints do (the server's {@code IdAnswers.single}: a decimal number as
 * {@code text/plain;charset=UTF-8} with its length), so its req/s is what the web stack costs.
 *
 * <p>Not in the server jar: {@code http-bench.sh} adds this module's classes to the server it
 * starts (ahead of the jar on its class path) and names this class in
 * {@code --spring.main.sources}.
 */
@RestController
public class NoopEndpoint {

    /** The same steps as the server's answer, number formatting included, so only the issuing differs. */
    @GetMapping("/bench/noop")
    void noop(HttpServletResponse response) throws IOException {
        byte[] bytes = Long.toString(0).getBytes(StandardCharsets.US_ASCII);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/plain;charset=UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
