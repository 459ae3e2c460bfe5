package org.leafid.server.segment;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Ends a start refused by {@link LeafAllocMisconfiguredException} with Spring Boot's short report
 * (what is wrong, which key to change), not a stack trace.
 */
class LeafAllocFailureAnalyzer extends AbstractFailureAnalyzer<LeafAllocMisconfiguredException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeafAllocMisconfiguredException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
