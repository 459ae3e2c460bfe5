package org.leafid.autoconfigure.snowflake.zookeeper;

import java.time.Duration;
import org.leafid.autoconfigure.LeafConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code leaf.snowflake.zk.*}, the ZooKeeper settings of the {@code zk_normal} and
 * {@code zk_recycle} worker-id modes. The address alone also chooses {@code zk_normal} when no mode
 * is set (Meituan Leaf's rule, {@code WorkerIdModeChoice}).
 *
 * @param address ZooKeeper connect string, for the zk modes
 * @param sessionTimeout ZooKeeper session timeout
 * @param connectTimeout how long a start waits to reach ZooKeeper before failing
 */
@ConfigurationProperties("leaf.snowflake.zk")
public record ZookeeperSettings(
        String address,
        @DefaultValue("15s") Duration sessionTimeout,
        @DefaultValue("3s") Duration connectTimeout) {

    /**
     * The address, which a ZooKeeper mode cannot do without.
     *
     * @throws LeafConfigurationException naming the key when it is unset
     */
    public String requiredAddress(String modeKey) {
        if (address == null || address.isBlank()) {
            throw new LeafConfigurationException("leaf.snowflake.zk.address",
                    "must be set for leaf.snowflake.mode=" + modeKey + ".",
                    "Set it to a ZooKeeper connect string such as 127.0.0.1:2181, or choose another "
                            + "leaf.snowflake.mode (local, mysql).");
        }
        return address;
    }
}
