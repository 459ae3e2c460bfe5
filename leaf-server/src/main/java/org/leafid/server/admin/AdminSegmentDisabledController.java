package org.leafid.server.admin;

import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.server.problem.ModeDisabledException;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * With a token but segment mode off there are no tags to administer: after the token check,
 * every admin path says so (404 {@code mode-disabled}) instead of a bare "not found".
 */
@RestController
@Conditional(AdminTokenConfigured.class)
@ConditionalOnLeafSwitch(value = "leaf.segment.enable", on = false)
class AdminSegmentDisabledController {

    @RequestMapping("/api/admin/**")
    void segmentDisabled() {
        throw new ModeDisabledException("segment", "leaf.segment.enable");
    }
}
