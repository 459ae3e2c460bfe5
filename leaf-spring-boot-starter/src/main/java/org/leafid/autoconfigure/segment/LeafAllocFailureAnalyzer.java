package org.leafid.autoconfigure.segment;

import org.leafid.core.LeafException;
import org.leafid.core.segment.SegmentNotReadyException;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.core.segment.TagExhaustedException;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.jdbc.segment.LeafAllocMisconfiguredException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Ends a start stopped by segment mode with Spring Boot's short report (what is wrong, what to
 * change), not a stack trace: {@code leaf_alloc} refused by the database
 * ({@link LeafAllocMisconfiguredException}), or a segment ID an embedding application asked for
 * while starting (an unknown or spent tag, the database down). Segment's exceptions only, so each
 * part reports its own failures.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
public class LeafAllocFailureAnalyzer extends AbstractFailureAnalyzer<LeafException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeafException cause) {
        if (cause instanceof LeafAllocMisconfiguredException misconfigured) {
            return new FailureAnalysis(misconfigured.getMessage(), misconfigured.action(), cause);
        }
        String action = action(cause);
        return action == null ? null
                : new FailureAnalysis("Segment mode could not issue an ID: " + cause.getMessage(), action, cause);
    }

    /** What to do, or null when the failure is not segment mode's. */
    private static String action(LeafException cause) {
        if (cause instanceof UnknownTagException unknown) {
            return "Insert the row of tag '" + unknown.tag() + "' into leaf_alloc (sql/leaf_alloc.sql shows one) or "
                    + "create it with POST /api/admin/tags, or correct the tag the application asks for.";
        }
        if (cause instanceof TagExhaustedException) {
            return "Move the application to a new tag.";
        }
        if (cause instanceof SegmentStoreException || cause instanceof SegmentNotReadyException) {
            return "Check leaf.jdbc.url, the network and the database of leaf_alloc, and start again.";
        }
        return null;
    }
}
