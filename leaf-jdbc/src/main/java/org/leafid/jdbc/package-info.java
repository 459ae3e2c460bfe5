/**
 * Leaf's database apart from any one table, in plain MyBatis and JDBC (no Spring: the starter wires
 * it, and another application could as well). {@link org.leafid.jdbc.session.LeafSqlSessions} is the one
 * session factory of Leaf's tables, shared by the segment store, the admin API's writes and the
 * {@code mysql} worker-id registry; {@link org.leafid.jdbc.SqlFailures} is the one reading of a JDBC
 * failure: the database could not be reached (waiting may heal it) or answered that the configuration
 * is wrong (it will not), and which key to change. Also here: JDBC urls as they may be shown, without
 * their secrets; where the embedded H2 default lives and how its schema is made; and the log of a
 * database outage, one line per cause rather than one per retry. How a block is reserved from a table — retries, the
 * store's identity, the high-water marks — is {@code reservation}'s, once for every table. The tables' own code is in
 * {@code segment} ({@code leaf_alloc}), {@code worker} ({@code leaf_workerid_alloc}) and {@code shard}
 * ({@code id_alloc} and {@code leaf_shard_*}).
 */
package org.leafid.jdbc;
