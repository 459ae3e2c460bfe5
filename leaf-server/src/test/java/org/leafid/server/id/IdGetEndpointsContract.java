package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.leafid.server.support.RunningServerTest;
import org.leafid.server.support.TestServerKeys;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * What the get endpoints answer, whichever way a request is served (the fast path of
 * {@link IdFastPathValve} or Spring MVC): the same bodies, headers and problem answers, and no ID
 * lost to a refusal. The server runs on the real MySQL-protocol test database; an interceptor
 * counts the requests that reach a Spring MVC handler, so a test can tell which way served them.
 */
abstract class IdGetEndpointsContract extends RunningServerTest {

    @Autowired
    AtomicInteger handled;

    @Autowired
    MeterRegistry registry;

    static void serverOnTheTestDatabase(DynamicPropertyRegistry registry, int snowflakePort) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "get-endpoints");
        registry.add("leaf.snowflake.local.worker-id", () -> "9");
        registry.add("leaf.snowflake.port", () -> Integer.toString(snowflakePort));
    }

    /** Counts the requests that reach a Spring MVC handler of the get paths. */
    @TestConfiguration(proxyBeanMethods = false)
    static class HandlerCount {

        @Bean
        AtomicInteger handled() {
            return new AtomicInteger();
        }

        @Bean
        WebMvcConfigurer countHandled(AtomicInteger handled) {
            return new WebMvcConfigurer() {
                @Override
                public void addInterceptors(InterceptorRegistry registry) {
                    registry.addInterceptor(new HandlerInterceptor() {
                        @Override
                        public boolean preHandle(HttpServletRequest request, HttpServletResponse response,
                                Object handler) {
                            handled.incrementAndGet();
                            return true;
                        }
                    }).addPathPatterns("/api/segment/get/**", "/api/snowflake/get/**", "/api/shard/get/**");
                }
            };
        }
    }

    /** Both ways give these answers. */
    void answersAsTheControllersDo() {
        String tag = newServedTag("get-answers", 1, 100);

        HttpResponse<String> single = http.get("/api/segment/get/" + tag);
        assertThat(single.statusCode()).isEqualTo(200);
        assertThat(single.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        assertThat(single.headers().firstValue("Content-Length")).hasValue("1");
        assertThat(single.body()).isEqualTo("1");
        assertThat(http.get("/api/segment/get/" + tag + "?count=3").body()).isEqualTo("2\n3\n4\n");
        HttpResponse<String> json = http.send("GET", "/api/segment/get/" + tag + "?count=2",
                "Accept", "application/json");
        assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(json.body()).isEqualTo("[\"5\",\"6\"]");
        assertThat(http.get("/api/snowflake/get/any-key").body()).matches("\\d{15,19}");

        HttpResponse<String> unknown = http.get("/api/segment/get/never-inserted-" + System.nanoTime());
        assertProblem(unknown, 404, "unknown-tag");
        assertThat(unknown.body()).contains("\"instance\":\"/api/segment/get/never-inserted-");
        assertProblem(http.get("/api/segment/get/" + tag + "?count=0"), 400, "invalid-count");
        assertProblem(http.get("/api/snowflake/get/k?count=1&count=2"), 400, "invalid-count");
        assertProblem(http.get("/api/snowflake/get/a%20b"), 400, "invalid-key");
        assertProblem(http.send("GET", "/api/segment/get/" + tag, "Accept", ";;;/\"x"), 400, "invalid-accept");
        assertProblem(http.send("POST", "/api/segment/get/" + tag), 405, "method-not-allowed");

        String exhausted = newServedTag("get-exhausted", Long.MAX_VALUE - 3, 10);
        assertProblem(http.get("/api/segment/get/" + exhausted), 503, "tag-exhausted");
        assertThat(DATABASE.maxId(exhausted)).isEqualTo(Long.MAX_VALUE - 3);

        assertThat(http.getId("/api/segment/get/" + tag)).as("no ID was lost to a refusal").isEqualTo(7);
    }

    static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.uri().toString()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                value -> assertThat(value).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:leaf:problem:" + type + "\"")
                .contains("\"status\":" + status).contains("\"detail\"")
                .doesNotContain("Exception", "at org.");
    }

    /** {@code http_server_requests_seconds_count} of one GET path and status. */
    double requests(String uri, String status) {
        Timer timer = registry.find("http.server.requests").tag("uri", uri).tag("status", status)
                .tag("method", "GET").timer();
        return timer == null ? 0 : timer.count();
    }

    /** {@code leaf_id_requests_seconds_count} of one mode. */
    double idRequests(String mode) {
        return registry.get("leaf.id.requests").tag("mode", mode).timer().count();
    }
}
