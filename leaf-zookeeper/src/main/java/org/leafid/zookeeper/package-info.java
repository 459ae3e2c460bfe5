/**
 * The ZooKeeper worker-id modes, on Curator. {@code zk_normal} is Meituan Leaf's scheme and a
 * drop-in for it: a persistent sequential node per {@code ip:port} whose sequence number is the
 * worker id for good, node data in Leaf's exact shape. When ZooKeeper is down at start the start
 * stops: a cached id cannot tell whether another process of the address took it meanwhile. {@code zk_recycle} moves ids between a free and an in-use pool in single
 * transactions, with a heartbeat and a sweeper that returns ids whose heartbeat is older than the
 * lease, measured on ZooKeeper's clock.
 */
package org.leafid.zookeeper;
