/**
 * Witnesses of reservations outside the store: what a server reserved, kept where a restore of the
 * database cannot reach it ({@link org.leafid.core.witness.DataDirWitness}, the server's data
 * directory), so that a generator never serves a number below it.
 */
package org.leafid.core.witness;
