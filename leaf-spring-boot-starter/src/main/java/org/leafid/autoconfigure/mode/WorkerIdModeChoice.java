package org.leafid.autoconfigure.mode;

/**
 * The worker-id mode in effect and why: the one place of the default rule. An explicit
 * {@code leaf.snowflake.mode} wins; unset, it is {@code zk_normal} when
 * {@code leaf.snowflake.zk.address} is set (Meituan Leaf has no mode key and always uses
 * ZooKeeper, so its unchanged {@code leaf.properties} must get the same worker id here), else
 * {@code local}.
 *
 * @param mode the mode in effect
 * @param reason how it was chosen, for the start-up log
 */
public record WorkerIdModeChoice(WorkerIdMode mode, String reason) {

    /**
     * @param configured {@code leaf.snowflake.mode} as bound, or null when unset
     * @param zkAddress {@code leaf.snowflake.zk.address}, or null when unset
     */
    public static WorkerIdModeChoice of(WorkerIdMode configured, String zkAddress) {
        if (configured != null) {
            return new WorkerIdModeChoice(configured, "leaf.snowflake.mode=" + configured.key());
        }
        if (zkAddress != null && !zkAddress.isBlank()) {
            return new WorkerIdModeChoice(WorkerIdMode.ZK_NORMAL,
                    "leaf.snowflake.mode unset and leaf.snowflake.zk.address set: Meituan Leaf's rule");
        }
        return new WorkerIdModeChoice(WorkerIdMode.LOCAL,
                "leaf.snowflake.mode unset and no leaf.snowflake.zk.address");
    }
}
