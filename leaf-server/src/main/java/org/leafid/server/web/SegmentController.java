package org.leafid.server.web;

import org.leafid.core.segment.SegmentAllocator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Segment IDs, Leaf-compatible: the ID as a plain-text decimal number. */
@RestController
@ConditionalOnProperty(name = "leaf.segment.enable", havingValue = "true", matchIfMissing = true)
class SegmentController {

    private final SegmentAllocator allocator;

    SegmentController(SegmentAllocator allocator) {
        this.allocator = allocator;
    }

    @GetMapping("/api/segment/get/{tag}")
    ResponseEntity<String> get(@PathVariable String tag) {
        long id = allocator.nextId(Keys.requireValid("tag", tag));
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(Long.toString(id));
    }
}
