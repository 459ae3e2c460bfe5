package org.leafid.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * A {@link LeafConfigurationException} anywhere in the cause chain becomes Spring Boot's
 * "APPLICATION FAILED TO START" summary: the key and the problem, then the fix. Ordered first,
 * so it wins over Boot's generic "Failed to bind properties under 'leaf.snowflake'" analysis of
 * the same chain, which would hide the key in a cause.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class LeafConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<LeafConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeafConfigurationException cause) {
        return new FailureAnalysis("Leaf configuration: " + cause.key() + " " + cause.problem(), cause.fix(), cause);
    }
}
