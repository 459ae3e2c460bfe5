package org.leafid.autoconfigure.client;

import java.time.Duration;
import java.util.List;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.leafid.autoconfigure.LeafValues;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.client.*}: the {@link org.leafid.client.LeafClient} bean's options.
 *
 * @param servers base URLs of the Leaf servers, asked in this order
 *     ({@code http://leaf-1:8080,http://leaf-2:8080})
 * @param connectTimeout how long a connection may take to open
 * @param requestTimeout how long a batch request may take, its whole answer (body included) received, before the
 *     next server is asked
 * @param maxBatch the largest batch asked for: at most the servers' {@code leaf.max-batch}
 * @param maxRangeBatch the largest batch of a segment tag (answered as ranges): at most the servers'
 *     {@code leaf.segment.max-range-batch}
 * @param prefetchThreshold the part of a batch used when the next one is fetched
 * @param maxWait the longest a call waits for IDs once the buffer is spent, then LeafUnavailableException
 * @param targetFetchInterval how long one batch should last; batch sizes follow the rate of use towards it
 */
@ConfigurationProperties("leaf.client")
public record LeafClientProperties(
        @DefaultValue List<String> servers,
        @DefaultValue("1s") Duration connectTimeout,
        @DefaultValue("2s") Duration requestTimeout,
        @DefaultValue("1000") int maxBatch,
        @DefaultValue("0.1") double prefetchThreshold,
        @DefaultValue("5s") Duration maxWait,
        @DefaultValue("100ms") Duration targetFetchInterval,
        @DefaultValue("1000000") int maxRangeBatch) {

    public LeafClientProperties {
        servers = List.copyOf(servers);
        for (String server : servers) {
            if (!server.startsWith("http://") && !server.startsWith("https://")) {
                throw new LeafConfigurationException("leaf.client.servers", "has '" + server
                        + "', which is not an http(s) URL.",
                        "List base URLs such as http://leaf-1:8080,http://leaf-2:8080.");
            }
        }
        LeafValues.requireBetween("leaf.client.max-batch", maxBatch, 1, 100_000);
        LeafValues.requireBetween("leaf.client.max-range-batch", maxRangeBatch, 1, 100_000_000);
        LeafValues.requireBetween("leaf.client.prefetch-threshold", prefetchThreshold, 0, 1);
        LeafValues.requirePositive("leaf.client.connect-timeout", connectTimeout);
        LeafValues.requirePositive("leaf.client.request-timeout", requestTimeout);
        LeafValues.requirePositive("leaf.client.max-wait", maxWait);
        LeafValues.requirePositive("leaf.client.target-fetch-interval", targetFetchInterval);
    }
}
