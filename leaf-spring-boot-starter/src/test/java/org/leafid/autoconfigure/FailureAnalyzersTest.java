package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.snowflake.WorkerIdStartFailureAnalyzer;
import org.leafid.core.WorkerIdUnavailableException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A worker id that cannot be held, deep in Spring's exceptions, is reported with its own sentence. */
class FailureAnalyzersTest {

    @Test
    void workerIdFailureIsDescribedByItsOwnMessageWithAnAction() {
        Throwable failure = new BeanCreationException("snowflakeGenerator", "Error creating bean",
                new BeanCreationException("workerIdHolder", "Invocation of init method failed",
                        new WorkerIdUnavailableException("ZooKeeper (leaf.snowflake.zk.address) could not be reached")));
        FailureAnalysis analysis = new WorkerIdStartFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription())
                .isEqualTo("Snowflake could not start: ZooKeeper (leaf.snowflake.zk.address) could not be reached");
        assertThat(analysis.getAction()).contains("leaf.snowflake.zk.address", "leaf.snowflake.enable=false");
    }

    @Test
    void configurationFailureNamesTheKeyAndTheFix() {
        Throwable failure = new IllegalStateException("binding failed",
                new LeafConfigurationException("leaf.segment.load-wait", "is 0ms but must be positive.", "Set it."));
        FailureAnalysis analysis = new LeafConfigurationFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).isEqualTo("Leaf configuration: leaf.segment.load-wait is 0ms but must be "
                + "positive.");
        assertThat(analysis.getAction()).isEqualTo("Set it.");
    }
}
