package org.leafid.server.web;

import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.server.config.LeafProperties;
import org.leafid.server.metrics.IdRequestTimers;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Segment IDs, Leaf-compatible: the ID as a plain-text decimal number; {@code ?count=N} for a batch. */
@RestController
@ConditionalOnProperty(name = "leaf.segment.enable", havingValue = "true", matchIfMissing = true)
class SegmentController {

    private final SegmentAllocator allocator;
    private final int maxBatch;
    private final Timer requests;

    SegmentController(SegmentAllocator allocator, LeafProperties leaf, IdRequestTimers timers) {
        this.allocator = allocator;
        this.maxBatch = leaf.maxBatch();
        this.requests = timers.segment();
    }

    @GetMapping("/api/segment/get/{tag}")
    ResponseEntity<String> get(@PathVariable String tag, @RequestParam(required = false) String count,
            @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept) {
        long started = System.nanoTime();
        try {
            Keys.requireValid("tag", tag);
            if (count == null) {
                return IdAnswers.single(allocator.nextId(tag));
            }
            int size = IdAnswers.parseCount(count, maxBatch);
            boolean json = IdAnswers.wantsJson(accept); // before issuing: a failure must not lose IDs
            return IdAnswers.batch(allocator.nextIds(tag, size), json);
        } finally {
            requests.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /** Each tag's double buffer, sorted by tag, for monitoring. */
    @GetMapping(value = "/api/segment/cache", produces = MediaType.APPLICATION_JSON_VALUE)
    List<SegmentCacheView> cache() {
        return allocator.views().values().stream().map(SegmentCacheView::of).toList();
    }
}
