package org.leafid.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.leafid.autoconfigure.segment.LeafAllocFailureAnalyzer;
import org.leafid.autoconfigure.snowflake.WorkerIdStartFailureAnalyzer;
import org.leafid.core.segment.UnknownTagException;
import org.leafid.core.worker.WorkerIdUnavailableException;
import org.leafid.core.shard.UnknownAppException;
import org.leafid.core.worker.ReservationFile;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * A worker id that cannot be held, deep in Spring's exceptions, is reported with its own sentence;
 * each failure by the part it belongs to.
 */
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

    @Test
    void aMissingTagAtStartIsSegmentModesFailureNotSnowflakes() {
        Throwable failure = new BeanCreationException("orderService", "Invocation of init method failed",
                new UnknownTagException("order"));
        assertThat(new WorkerIdStartFailureAnalyzer().analyze(failure)).isNull();
        FailureAnalysis analysis = firstAnalysis(failure);
        assertThat(analysis.getDescription()).isEqualTo("Segment mode could not issue an ID: Tag 'order' is not in "
                + "leaf_alloc");
        assertThat(analysis.getAction()).contains("leaf_alloc", "POST /api/admin/tags");
    }

    @Test
    void aCorruptWorkerIdCacheFileIsSnowflakesFailureInOneLine() throws Exception {
        Path file = Files.createTempDirectory("leaf-cache").resolve("workId.json");
        Files.writeString(file, "{\"workerId\":3,\n\u0000garbage" + "x".repeat(500));
        Throwable failure = catchThrowable(() -> new ReservationFile(file).read());
        FailureAnalysis analysis = firstAnalysis(new BeanCreationException("workerIdHolder", "init failed", failure));
        assertThat(analysis.getDescription()).startsWith("Snowflake could not start: Worker-id cache " + file
                + " is not valid ({\"workerId\":3,??garbage").doesNotContain("\n", "\u0000").hasSizeLessThan(400);
        assertThat(analysis.getAction()).contains("Restore " + file, "delete it");
    }

    @Test
    void aLeafFailureOfNoAnalyzersPartIsLeftToSpringBoot() {
        assertThat(firstAnalysis(new BeanCreationException("x", "y", new UnknownAppException(7)))).isNull();
    }

    /** Leaf's analyzers in their order, as Spring Boot runs them: the first that claims the failure reports it. */
    private static FailureAnalysis firstAnalysis(Throwable failure) {
        List<AbstractFailureAnalyzer<?>> analyzers = new ArrayList<>(List.of(new LeafConfigurationFailureAnalyzer(),
                new WorkerIdStartFailureAnalyzer(), new LeafAllocFailureAnalyzer()));
        AnnotationAwareOrderComparator.sort(analyzers);
        return analyzers.stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElse(null);
    }
}
