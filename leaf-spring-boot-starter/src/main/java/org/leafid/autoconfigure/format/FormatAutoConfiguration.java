package org.leafid.autoconfigure.format;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.leafid.autoconfigure.ClockAutoConfiguration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.segment.SegmentAutoConfiguration;
import org.leafid.autoconfigure.snowflake.SnowflakeAutoConfiguration;
import org.leafid.core.DaemonThreads;
import org.leafid.core.format.BoundaryTimer;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.FormattedIds;
import org.leafid.core.format.DefinedPeriodSequences;
import org.leafid.core.format.FormatConflictException;
import org.leafid.core.format.FormatDefinitionRegistry;
import org.leafid.core.format.PeriodSequences;
import org.leafid.core.format.SegmentPeriodSequences;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentTagCreator;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The formats of {@code leaf.formats.*} ({@link FormattedIds}): each checked at start, on the segment
 * allocator (a tag, or a tag per period) or the snowflake generator. Always made, with no format
 * when none is configured, so that the endpoints answer 404 naming the key to set.
 */
@AutoConfiguration(after = {ClockAutoConfiguration.class, SegmentAutoConfiguration.class,
        SnowflakeAutoConfiguration.class})
public class FormatAutoConfiguration {

    /** How long before a period begins its row is made and its first block reserved. */
    static final Duration PREPARE_AHEAD = Duration.ofMinutes(1);

    /** Ends the formats' stretches of time (an hour, a day) at their ends, so that no string reads the clock. */
    @Bean(destroyMethod = "shutdownNow")
    @ConditionalOnMissingBean(name = "formatTimer")
    ScheduledExecutorService formatTimer() {
        return Executors.newSingleThreadScheduledExecutor(new DaemonThreads("leaf-format-timer"));
    }

    @Bean
    @ConditionalOnMissingBean
    FormattedIds formattedIds(FormatsProperties properties, InstantSource leafClock,
            @Qualifier("formatTimer") ScheduledExecutorService formatTimer,
            ObjectProvider<SegmentAllocator> segments, ObjectProvider<SegmentTagCreator> tagCreator,
            @Qualifier("segmentLoader") ObjectProvider<Executor> segmentLoader,
            ObjectProvider<SnowflakeGenerator> snowflake, ObjectProvider<MeterRegistry> registry,
            ObjectProvider<FormatDefinitionRegistry> definitions) {
        BoundaryTimer timer = (at, task) -> formatTimer.schedule(task, Math.max(0, at - leafClock.millis()),
                TimeUnit.MILLISECONDS);
        List<FormattedIdGenerator> formats = new ArrayList<>();
        for (Map.Entry<String, FormatsProperties.FormatSettings> entry : properties.formats().entrySet()) {
            Formats format = Formats.check(entry.getKey(), entry.getValue());
            PeriodSequences sequences = switch (format.source()) {
                case SEGMENT -> defined(format, segmentSequences(format, segments, tagCreator, segmentLoader),
                        definitions.getIfAvailable());
                case SNOWFLAKE -> snowflakeSequences(format, snowflake);
            };
            formats.add(new FormattedIdGenerator(format.name(), format.pattern(), format.reset(), format.zone(),
                    sequences, leafClock, PREPARE_AHEAD, timer));
        }
        registry.ifAvailable(meters -> formats.forEach(format ->
                FunctionCounter.builder("leaf.ids.issued", format, FormattedIdGenerator::issuedCount)
                        .description("IDs handed out").tags("mode", "format", "key", format.name())
                        .register(meters)));
        return new FormattedIds(formats);
    }

    private static PeriodSequences segmentSequences(Formats format, ObjectProvider<SegmentAllocator> segments,
            ObjectProvider<SegmentTagCreator> tagCreator, ObjectProvider<Executor> segmentLoader) {
        SegmentAllocator allocator = segments.getIfAvailable();
        SegmentTagCreator creator = tagCreator.getIfAvailable();
        if (allocator == null || creator == null) {
            throw new LeafConfigurationException("leaf.formats." + format.name() + ".source", "is segment, but "
                    + "segment mode is off (leaf.segment.enable=false, or leaf-jdbc missing), or its store cannot "
                    + "create rows (an application's own SegmentStore)", "Turn segment mode on, or use source=snowflake.");
        }
        Executor preparer = segmentLoader.getIfAvailable(() -> Runnable::run);
        return new SegmentPeriodSequences(format.name(), format.tag(), format.step(), allocator, creator, preparer);
    }

    /**
     * A segment format served only while the fleet records this server's definition of its tag; checked
     * at start too, so that a conflict is in the log before the first request. Without a registry (an
     * application's own store) as it is.
     */
    private static PeriodSequences defined(Formats format, PeriodSequences sequences, FormatDefinitionRegistry registry) {
        if (registry == null) {
            return sequences;
        }
        DefinedPeriodSequences defined = new DefinedPeriodSequences(format.name(), format.tag(), definition(format),
                registry, sequences);
        try {
            defined.check();
        } catch (FormatConflictException conflict) {
            // Logged once by the check; the format answers 503 format-conflict.
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(FormatAutoConfiguration.class).warn("Format '{}': its definition could not be "
                    + "checked against leaf_format at start ({}); it is checked again at its first request",
                    format.name(), e.getMessage());
        }
        return defined;
    }

    /** What must be the same on every server that serves a tag: everything that decides the strings. */
    static String definition(Formats format) {
        return "pattern=" + format.pattern().text() + " reset=" + format.reset().name().toLowerCase(Locale.ROOT)
                + " zone=" + format.zone().getId() + " source=segment";
    }

    private static PeriodSequences snowflakeSequences(Formats format, ObjectProvider<SnowflakeGenerator> snowflake) {
        SnowflakeGenerator generator = snowflake.getIfAvailable();
        if (generator == null) {
            throw new LeafConfigurationException("leaf.formats." + format.name() + ".source", "is snowflake, but "
                    + "snowflake mode is off (leaf.snowflake.enable=false)", "Turn snowflake mode on, or use "
                    + "source=segment.");
        }
        return period -> generator;
    }
}
