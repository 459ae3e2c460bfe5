/**
 * The {@code mysql} worker-id mode: each instance owns one {@code leaf_workerid_alloc} row for
 * good and its worker id is the row's id - 1. The reservation goes to the cache file first and
 * to the row best effort, so an instance keeps issuing while the database is down and starts from
 * its cache file when it cannot be reached.
 */
package org.leafid.jdbc.worker;
