package org.leafid.autoconfigure;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Keys directly under {@code leaf.}.
 *
 * @param name cluster name; ZooKeeper paths and cache files use it (1-64 letters, digits, {@code .}, {@code _}, {@code -})
 * @param dataDir embedded database and worker-id cache files; relative to the working directory
 * @param maxBatch the largest {@code count} a get call accepts (1 to 100000); a segment batch asked for as
 *     ranges has its own limit, {@code leaf.segment.max-range-batch}
 */
@ConfigurationProperties("leaf")
public record LeafProperties(
        @DefaultValue("leaf") String name,
        @DefaultValue("./data") Path dataDir,
        @DefaultValue("1000") int maxBatch) {

    /** What {@code leaf.name} and the other names of a fleet may be. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public LeafProperties {
        LeafValues.requireMatch("leaf.name", name, NAME, "1-64 characters of letters, digits, '.', '_' or '-'");
        if (dataDir == null) {
            throw new LeafConfigurationException("leaf.data-dir", "is empty.",
                    "Set it to a directory, or leave it unset for ./data.");
        }
        LeafValues.requireBetween("leaf.max-batch", maxBatch, 1, 100_000);
    }
}
