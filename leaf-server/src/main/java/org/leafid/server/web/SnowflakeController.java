package org.leafid.server.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.snowflake.SnowflakeMeters;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.server.metrics.IdRequestTimers;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Snowflake IDs, Leaf-compatible. The key is validated but, as in Leaf, does not change the ID. */
@RestController
@ConditionalOnLeafSwitch("leaf.snowflake.enable")
class SnowflakeController {

    private final SnowflakeGenerator generator;
    private final int maxBatch;
    private final Timer requests;
    private final Counter issued;

    SnowflakeController(SnowflakeGenerator generator, LeafProperties leaf, IdRequestTimers timers,
            SnowflakeMeters meters) {
        this.generator = generator;
        this.maxBatch = leaf.maxBatch();
        this.requests = timers.snowflake();
        this.issued = meters.issued();
    }

    @GetMapping("/api/snowflake/get/{key}")
    void get(@PathVariable String key, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        long started = System.nanoTime();
        try {
            Keys.requireValid("key", key);
            // Read from the request itself: Spring's @RequestParam/@RequestHeader resolvers cost
            // more than issuing the ID.
            String count = request.getParameter("count");
            if (count == null) {
                long id = generator.nextId();
                issued.increment();
                IdAnswers.single(response, id);
                return;
            }
            int size = IdAnswers.parseCount(request.getParameterValues("count"), maxBatch);
            // Before issuing: a failure must not lose IDs.
            boolean json = IdAnswers.wantsJson(request.getHeader(HttpHeaders.ACCEPT));
            long[] ids = generator.nextIds(size);
            issued.increment(ids.length);
            IdAnswers.batch(response, ids, json);
        } finally {
            requests.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    @GetMapping(value = "/api/snowflake/decode/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    DecodedId decode(@PathVariable String id) {
        long value;
        try {
            value = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new InvalidIdException(id);
        }
        if (value < 0) {
            throw new InvalidIdException(id);
        }
        return DecodedId.of(generator.layout().decode(value), generator.layout());
    }
}
