package org.leafid.zookeeper;

/** The ZooKeeper paths of one Leaf cluster ({@code leaf.name}), as Leaf lays them out. */
public record ZkPaths(String name) {

    public String root() {
        return "/snowflake/" + name;
    }

    /** {@code zk_normal}: one persistent sequential node per ip:port. */
    public String forever() {
        return root() + "/forever";
    }

    /**
     * {@code zk_normal}: the parent of the ephemeral nodes that say which live process holds an
     * address's id. Beside {@code forever}, never in it: Meituan Leaf reads every child of
     * {@code forever} as {@code ip:port-sequence}.
     */
    public String live() {
        return root() + "/live";
    }

    /** {@code zk_normal}: the ephemeral node of the live process of {@code address}, its owner as data. */
    public String live(String address) {
        return live() + "/" + address;
    }

    /** {@code zk_recycle}: the pool; its own mtime is used as ZooKeeper's clock by the sweeper. */
    public String recycle() {
        return root() + "/recycle";
    }

    public String notInUse() {
        return recycle() + "/notuse";
    }

    public String inUse() {
        return recycle() + "/inuse";
    }

    public String notInUse(int workerId) {
        return notInUse() + "/" + workerId;
    }

    public String inUse(int workerId) {
        return inUse() + "/" + workerId;
    }
}
