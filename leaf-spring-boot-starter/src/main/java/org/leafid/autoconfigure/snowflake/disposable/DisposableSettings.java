package org.leafid.autoconfigure.snowflake.disposable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.disposable.*}, the settings of the {@code disposable} worker-id mode.
 *
 * @param allowFewWorkerBits accept the {@code disposable} mode with 10 worker bits or fewer, where
 *     every start uses one of at most 1,024 ids for good
 */
@ConfigurationProperties("leaf.snowflake.disposable")
public record DisposableSettings(@DefaultValue("false") boolean allowFewWorkerBits) {}
