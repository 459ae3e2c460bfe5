package org.leafid.server.admin;

import java.net.URI;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;
import org.leafid.jdbc.segment.LeafAllocTable;
import org.leafid.server.problem.InvalidKeyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Conditional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.databind.JsonNode;

/**
 * The admin API on {@code leaf_alloc}: create a tag, change a tag's step ({@link AdminRefreshController}
 * re-reads the lists).
 * Exists only with a {@code leaf.admin.token}; {@link AdminAuth} checks it before any of these
 * methods runs. Every change is a plain statement on the table, so other instances see it at
 * their next refresh (new tags) or next block load (steps), as after an operator's SQL edit.
 */
@RestController
@RequestMapping("/api/admin")
@Conditional(AdminTokenConfigured.class)
@ConditionalOnLeafSwitch("leaf.segment.enable")
class AdminController {

    private static final Logger log = LoggerFactory.getLogger(AdminController.class);

    private final LeafAllocTable table;
    private final SegmentAllocator allocator;

    AdminController(LeafAllocTable table, SegmentAllocator allocator) {
        this.table = table;
        this.allocator = allocator;
    }

    @PostMapping("/tags")
    ResponseEntity<TagView> create(@RequestBody JsonNode body) {
        TagRequests.NewTag request = TagRequests.newTag(body);
        if (table.row(request.tag()).isPresent()) {
            throw new TagExistsException(request.tag());
        }
        long mark = table.highestMark(request.tag());
        if (request.maxId() < mark) {
            throw new BelowHighWaterException("Tag '" + request.tag() + "' had numbers up to " + (mark - 1)
                    + " reserved before its row was deleted (leaf_high_water keeps " + mark + "); created with maxId "
                    + request.maxId() + " it would issue them again. Create it with maxId " + mark
                    + " or above, or use a new tag");
        }
        TagRow row = table.insert(request.tag(), request.maxId(), request.step(), request.description())
                .orElseThrow(() -> new TagExistsException(request.tag()));
        log.info("Admin: created tag '{}' with max_id {} and step {}", row.tag(), row.maxId(), row.step());
        serveAtOnce(row.tag());
        URI location = ServletUriComponentsBuilder.fromCurrentContextPath()
                .path("/api/segment/tags/{tag}").buildAndExpand(row.tag()).toUri();
        return ResponseEntity.created(location).body(TagView.of(row));
    }

    @PutMapping("/tags/{tag}/step")
    TagView changeStep(@PathVariable String tag, @RequestBody JsonNode body) {
        if (!TagRequests.isValidTag(tag)) {
            throw new InvalidKeyException("tag");
        }
        int step = TagRequests.newStep(body);
        TagRow row = table.changeStep(tag, step).orElseThrow(() -> new UnknownTagException(tag));
        log.info("Admin: tag '{}' step set to {}; it applies from each instance's next block", tag, step);
        return TagView.of(row);
    }

    /**
     * Re-reads the tag list so this instance serves the new tag now rather than at the next
     * periodic refresh. The row is committed whatever happens here, so a failed re-read is not
     * the request's failure: the periodic refresh, which retries, brings the tag in.
     */
    private void serveAtOnce(String tag) {
        try {
            allocator.refresh();
        } catch (SegmentStoreException e) {
            log.warn("Tag '{}' was created, but the tag list could not be re-read ({}); it is served from the "
                    + "next periodic refresh", tag, e.getMessage());
        }
    }
}
