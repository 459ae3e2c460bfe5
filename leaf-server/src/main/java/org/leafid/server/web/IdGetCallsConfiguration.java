package org.leafid.server.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.leafid.autoconfigure.ConditionalOnLeafSwitch;
import org.leafid.autoconfigure.LeafProperties;
import org.leafid.autoconfigure.snowflake.SnowflakeMeters;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.snowflake.SnowflakeGenerator;
import org.leafid.server.metrics.IdRequestTimers;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerExceptionResolver;

/** The get endpoints' calls, one per mode that is on, and the fast path in front of Spring MVC. */
@Configuration(proxyBeanMethods = false)
class IdGetCallsConfiguration {

    @Bean
    @ConditionalOnLeafSwitch("leaf.segment.enable")
    IdGetCall segmentGetCall(SegmentAllocator allocator, LeafProperties leaf, IdRequestTimers timers) {
        IdGetCall.Issuer issuer = new IdGetCall.Issuer() {
            @Override
            public long nextId(String tag) {
                return allocator.nextId(tag);
            }

            @Override
            public long[] nextIds(String tag, int count) {
                return allocator.nextIds(tag, count);
            }
        };
        return new IdGetCall("segment", "tag", issuer, leaf.maxBatch(), timers.segment());
    }

    /** The key is validated but, as in Leaf, does not change the ID. */
    @Bean
    @ConditionalOnLeafSwitch("leaf.snowflake.enable")
    IdGetCall snowflakeGetCall(SnowflakeGenerator generator, LeafProperties leaf, IdRequestTimers timers,
            SnowflakeMeters meters) {
        Counter issued = meters.issued();
        IdGetCall.Issuer issuer = new IdGetCall.Issuer() {
            @Override
            public long nextId(String key) {
                long id = generator.nextId();
                issued.increment();
                return id;
            }

            @Override
            public long[] nextIds(String key, int count) {
                long[] ids = generator.nextIds(count);
                issued.increment(ids.length);
                return ids;
            }
        };
        return new IdGetCall("snowflake", "key", issuer, leaf.maxBatch(), timers.snowflake());
    }

    /**
     * First in the context's pipeline, ahead of the filters (Boot's request observation among them),
     * so a request it answers is timed once, by {@link FastPathRequestMeter}.
     */
    @Bean
    @ConditionalOnProperty(name = "leaf.http.fast-path", havingValue = "true", matchIfMissing = true)
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> idFastPath(ObjectProvider<IdGetCall> calls,
            @Qualifier("handlerExceptionResolver") ObjectProvider<HandlerExceptionResolver> problems,
            ObjectProvider<MeterRegistry> registry,
            @Value("${management.observations.enable.http.server.requests:true}") boolean observed) {
        return factory -> factory.addContextValves(new IdFastPathValve(() -> calls.orderedStream().toList(),
                problems::getObject, new FastPathRequestMeter(registry::getObject, observed)));
    }
}
