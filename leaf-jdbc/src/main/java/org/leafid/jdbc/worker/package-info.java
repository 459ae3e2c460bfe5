/**
 * The worker-id modes that keep their ids in Leaf's database: {@code mysql} (a row per instance
 * for good) and {@code disposable} (a row per start, uid-generator's), each in a package of its
 * own, and what both need after the database failed over ({@link org.leafid.jdbc.worker.StoreChangeWait}).
 */
package org.leafid.jdbc.worker;
