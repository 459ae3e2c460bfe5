package org.leafid.autoconfigure.shard;

import java.util.List;
import java.util.function.Consumer;
import org.leafid.core.shard.ShardApp;

/**
 * Told the app list of {@code id_alloc} each time {@link ShardAppRefresher} reads it: a bean of
 * this type (the Redis buffer's list clean-up and meters, an application's own) is called with
 * every new list. A listener that throws a {@code LeafConfigurationException} stops the start.
 */
public interface ShardAppsListener extends Consumer<List<ShardApp>> {}
