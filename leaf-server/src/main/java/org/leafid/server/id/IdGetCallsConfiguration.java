package org.leafid.server.id;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.mode.ConditionalOnShardMode;
import org.leafid.autoconfigure.segment.SegmentProperties;
import org.leafid.core.format.FormattedIdGenerator;
import org.leafid.core.format.FormattedIds;
import org.leafid.core.segment.IdRanges;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.shard.ShardIdGenerator;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.server.metrics.IdRequestTimers;
import org.leafid.server.problem.Keys;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerExceptionResolver;

/** The get endpoints' calls, one per mode that is on, and the fast path in front of Spring MVC. */
@Configuration(proxyBeanMethods = false)
class IdGetCallsConfiguration {

    @Bean
    @ConditionalOnLeafSwitch("leaf.segment.enable")
    IdGetCall<String> segmentGetCall(SegmentAllocator allocator, LeafProperties leaf, SegmentProperties segment,
            IdRequestTimers timers) {
        IdGetCall.Issuer<String> issuer = new SegmentIssuer(allocator);
        return new IdGetCall<>("segment", "tag", issuer, IdAnswers.CountLimit.maxBatch(leaf.maxBatch()),
                new IdAnswers.CountLimit(segment.maxRangeBatch(), "leaf.segment.max-range-batch"), timers.segment());
    }

    /** The key is validated but, as in Leaf, does not change the ID. */
    @Bean
    @ConditionalOnLeafSwitch("leaf.snowflake.enable")
    IdGetCall<String> snowflakeGetCall(SnowflakeGenerator generator, LeafProperties leaf, IdRequestTimers timers) {
        IdGetCall.Issuer<String> issuer = new KeyIssuer("key") {
            @Override
            public long nextId(String key) {
                return generator.nextId();
            }

            @Override
            public long[] nextIds(String key, int count) {
                return generator.nextIds(count);
            }
        };
        IdAnswers.CountLimit limit = IdAnswers.CountLimit.maxBatch(leaf.maxBatch());
        return new IdGetCall<>("snowflake", "key", issuer, limit, limit, timers.snowflake());
    }

    /** The shard mode's get: the app id from the path, the shard from {@code gatePass}. */
    @Bean
    @ConditionalOnShardMode
    IdGetCall<ShardGetIssuer.AppAndGatePass> shardGetCall(ShardIdGenerator generator, LeafProperties leaf,
            IdRequestTimers timers) {
        // A shard batch is issued ID by ID whatever its form: its ranges are bounded as its lists are.
        IdAnswers.CountLimit limit = IdAnswers.CountLimit.maxBatch(leaf.maxBatch());
        return new IdGetCall<>("shard", "appId", new ShardGetIssuer(generator), limit, limit, timers.shard());
    }

    /** The formats' get: the name from the path; every answer carries the pattern (header {@code Leaf-Format}). */
    @Bean
    @Conditional(FormatsConfigured.class)
    IdGetCall<FormattedIdGenerator> formatGetCall(FormattedIds formats, LeafProperties leaf, IdRequestTimers timers) {
        return new IdGetCall<>("format", "name", new FormatGetIssuer(formats),
                IdAnswers.CountLimit.maxBatch(leaf.maxBatch()), timers.format());
    }

    /**
     * First in the context's pipeline, ahead of the filters (Boot's request observation among them),
     * so a request it answers is timed once, by {@link FastPathRequestMeter}. The switch is read as
     * {@link HttpProperties} binds it: {@code yes} is on in both.
     */
    @Bean
    @ConditionalOnLeafSwitch("leaf.http.fast-path")
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> idFastPath(ObjectProvider<IdGetCall<?>> calls,
            @Qualifier("handlerExceptionResolver") ObjectProvider<HandlerExceptionResolver> problems,
            ObjectProvider<MeterRegistry> registry,
            @Value("${management.observations.enable.http.server.requests:true}") boolean observed) {
        return factory -> factory.addContextValves(new IdFastPathValve(() -> calls.orderedStream().toList(),
                problems::getObject, new FastPathRequestMeter(registry::getObject, observed)));
    }

    /** A mode whose path names a tag or key of the one rule for them ({@link Keys}). */
    private abstract static class KeyIssuer implements IdGetCall.Issuer<String> {

        private final String keyName;

        KeyIssuer(String keyName) {
            this.keyName = keyName;
        }

        @Override
        public String key(String given, HttpServletRequest request) {
            return Keys.requireValid(keyName, given);
        }
    }

    /** Segment: a batch is a run of a block or two, so it can be answered as ranges. */
    private static final class SegmentIssuer extends KeyIssuer implements IdGetCall.RangeIssuer<String> {

        private final SegmentAllocator allocator;

        SegmentIssuer(SegmentAllocator allocator) {
            super("tag");
            this.allocator = allocator;
        }

        @Override
        public long nextId(String tag) {
            return allocator.nextId(tag);
        }

        @Override
        public long[] nextIds(String tag, int count) {
            return allocator.nextIds(tag, count);
        }

        @Override
        public IdRanges nextRanges(String tag, int count) {
            return allocator.nextRanges(tag, count);
        }
    }
}
