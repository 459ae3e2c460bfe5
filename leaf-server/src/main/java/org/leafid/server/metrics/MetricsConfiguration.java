package org.leafid.server.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Meters shared by both modes; the per-mode ones are made with their mode's beans. */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    static final String DISK_PATH_TAG = "path";
    /** What the {@code path} tag of the disk meters says instead of the directory. */
    static final String DISK_PATH_SHOWN = "working-directory";

    @Bean
    IdRequestTimers idRequestTimers(MeterRegistry registry) {
        return new IdRequestTimers(registry);
    }

    /**
     * Spring Boot's {@code disk.free} and {@code disk.total} name the directory they measure in their
     * {@code path} tag, and the scrape endpoint answers anyone: where the server keeps its data is not
     * theirs to learn. The tag stays (dashboards group by it), with one fixed value.
     */
    @Bean
    MeterFilter diskPathHidden() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.getName().startsWith("disk.") && id.getTag(DISK_PATH_TAG) != null
                        ? id.withTag(Tag.of(DISK_PATH_TAG, DISK_PATH_SHOWN)) : id;
            }
        };
    }
}
