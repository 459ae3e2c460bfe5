package org.leafid.autoconfigure;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Keys directly under {@code leaf.}.
 *
 * @param name cluster name; ZooKeeper paths and cache files use it (1-64 letters, digits, {@code .}, {@code _}, {@code -})
 * @param dataDir embedded database and worker-id cache files; relative to the working directory
 * @param maxBatch the largest {@code count} a get call accepts (1 to 100000)
 */
@Validated
@ConfigurationProperties("leaf")
public record LeafProperties(
        @DefaultValue("leaf") @Pattern(regexp = "[A-Za-z0-9._-]{1,64}",
                message = "must be 1-64 characters of letters, digits, '.', '_' or '-'") String name,
        @DefaultValue("./data") @NotNull Path dataDir,
        @DefaultValue("1000") @Min(1) @Max(100_000) int maxBatch) {}
