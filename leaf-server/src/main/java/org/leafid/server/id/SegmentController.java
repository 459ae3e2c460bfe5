package org.leafid.server.id;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.segment.SegmentLoadOutcomes;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.server.disclosure.Disclosure;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Segment IDs, Leaf-compatible: the ID as a plain-text decimal number; {@code ?count=N} for a batch.
 * Ordinary GETs of an ID are answered by {@link IdFastPathValve} before they reach Spring MVC; this
 * mapping answers the rest (HEAD, a key the fast path leaves alone) the same way, with the same code.
 */
@RestController
@ConditionalOnLeafSwitch("leaf.segment.enable")
class SegmentController {

    private final SegmentAllocator allocator;
    private final SegmentLoadOutcomes loadOutcomes;
    private final IdGetCall<?> getCall;
    private final Disclosure disclosure;

    SegmentController(SegmentAllocator allocator, SegmentLoadOutcomes loadOutcomes,
            @Qualifier("segmentGetCall") IdGetCall<?> segmentGetCall, Disclosure disclosure) {
        this.allocator = allocator;
        this.loadOutcomes = loadOutcomes;
        this.getCall = segmentGetCall;
        this.disclosure = disclosure;
    }

    @GetMapping("/api/segment/get/{tag}")
    void get(@PathVariable String tag, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        getCall.serve(tag, request, response);
    }

    /**
     * Each tag's double buffer, sorted by tag, for monitoring. Before the tag list could be read
     * there is nothing to show but the cause: 503, as for an ID, naming it.
     */
    @GetMapping(value = "/api/segment/cache", produces = MediaType.APPLICATION_JSON_VALUE)
    List<SegmentCacheView> cache(HttpServletRequest request) {
        RuntimeException failure = allocator.lastRefreshFailure();
        if (!allocator.tagsLoaded() && failure != null) {
            throw failure instanceof SegmentStoreException store ? store
                    : new SegmentStoreException(null, failure.toString(), failure);
        }
        Map<String, SegmentLoadOutcomes.Failure> failures = loadOutcomes.lastFailures();
        return allocator.views().values().stream()
                .map(view -> SegmentCacheView.of(view, failures.get(view.tag()), text -> disclosure.shown(request, text)))
                .toList();
    }
}
