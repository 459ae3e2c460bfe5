package org.leafid.server.web;

import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.segment.SegmentLoadOutcomes;
import org.leafid.core.SegmentStoreException;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.server.metrics.IdRequestTimers;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Segment IDs, Leaf-compatible: the ID as a plain-text decimal number; {@code ?count=N} for a batch. */
@RestController
@ConditionalOnLeafSwitch("leaf.segment.enable")
class SegmentController {

    private final SegmentAllocator allocator;
    private final SegmentLoadOutcomes loadOutcomes;
    private final int maxBatch;
    private final Timer requests;

    SegmentController(SegmentAllocator allocator, LeafProperties leaf, IdRequestTimers timers,
            SegmentLoadOutcomes loadOutcomes) {
        this.allocator = allocator;
        this.loadOutcomes = loadOutcomes;
        this.maxBatch = leaf.maxBatch();
        this.requests = timers.segment();
    }

    @GetMapping("/api/segment/get/{tag}")
    void get(@PathVariable String tag, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        long started = System.nanoTime();
        try {
            Keys.requireValid("tag", tag);
            // Read from the request itself: Spring's @RequestParam/@RequestHeader resolvers cost
            // more than issuing the ID.
            String count = request.getParameter("count");
            if (count == null) {
                IdAnswers.single(response, allocator.nextId(tag));
                return;
            }
            int size = IdAnswers.parseCount(request.getParameterValues("count"), maxBatch);
            // Before issuing: a failure must not lose IDs.
            boolean json = IdAnswers.wantsJson(request.getHeader(HttpHeaders.ACCEPT));
            IdAnswers.batch(response, allocator.nextIds(tag, size), json);
        } finally {
            requests.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Each tag's double buffer, sorted by tag, for monitoring. Before the tag list could be read
     * there is nothing to show but the cause: 503, as for an ID, naming it.
     */
    @GetMapping(value = "/api/segment/cache", produces = MediaType.APPLICATION_JSON_VALUE)
    List<SegmentCacheView> cache() {
        RuntimeException failure = allocator.lastRefreshFailure();
        if (!allocator.tagsLoaded() && failure != null) {
            throw failure instanceof SegmentStoreException store ? store
                    : new SegmentStoreException(null, failure.toString(), failure);
        }
        Map<String, SegmentLoadOutcomes.Failure> failures = loadOutcomes.lastFailures();
        return allocator.views().values().stream()
                .map(view -> SegmentCacheView.of(view, failures.get(view.tag()))).toList();
    }
}
