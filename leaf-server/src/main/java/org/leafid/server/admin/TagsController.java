package org.leafid.server.admin;

import java.util.List;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.jdbc.segment.LeafAllocTable;
import org.leafid.server.problem.InvalidKeyException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The {@code leaf_alloc} rows, read from the table on each request (not the tags this instance
 * serves, which follow the table at each refresh). Open, like {@code /api/segment/cache}, which
 * shows the same numbers; changes go through the admin API. A created tag's {@code Location}
 * points at its row here.
 */
@RestController
@RequestMapping("/api/segment/tags")
@ConditionalOnLeafSwitch("leaf.segment.enable")
class TagsController {

    private final LeafAllocTable table;

    TagsController(LeafAllocTable table) {
        this.table = table;
    }

    @GetMapping
    List<TagView> all() {
        return table.rows().stream().map(TagView::of).toList();
    }

    @GetMapping("/{tag}")
    TagView one(@PathVariable String tag) {
        if (!TagRequests.isValidTag(tag)) {
            throw new InvalidKeyException("tag");
        }
        return table.row(tag).map(TagView::of).orElseThrow(() -> new UnknownTagException(tag));
    }
}
