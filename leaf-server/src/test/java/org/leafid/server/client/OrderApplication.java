package org.leafid.server.client;

import org.leafid.client.LeafClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;

/**
 * A calling application's configuration for LeafClientStarterTest: a component made from the
 * starter's bean. Top-level, so that the test's {@code @SpringBootTest} does not take it for the
 * server's configuration, and without {@code @Configuration}, so that the server's component scan
 * leaves it out (its {@code @Bean} method works all the same).
 */
class OrderApplication {

    /** The application's own code: it knows only the injected client. */
    record OrderNumbers(LeafClient leaf, String tag) {
        long next() {
            return leaf.segment(tag).nextId();
        }
    }

    @Bean
    OrderNumbers orderNumbers(LeafClient leaf, @Value("${orders.tag}") String tag) {
        return new OrderNumbers(leaf, tag);
    }
}
