package org.leafid.autoconfigure.segment;

import org.leafid.jdbc.segment.LeafAllocMisconfiguredException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Ends a start refused by {@link LeafAllocMisconfiguredException} with Spring Boot's short report
 * (what is wrong, which key to change), not a stack trace. Ordered before the generic analyzer of
 * {@link org.leafid.core.LeafException}s at start, which would call it a snowflake failure.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class LeafAllocFailureAnalyzer extends AbstractFailureAnalyzer<LeafAllocMisconfiguredException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeafAllocMisconfiguredException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
