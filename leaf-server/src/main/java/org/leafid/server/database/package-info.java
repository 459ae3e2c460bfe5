/**
 * What the server knows about its database apart from any one table: how a JDBC failure is to be
 * read (unreachable, or an answer that says the configuration is wrong) and how a JDBC url is
 * shown without its secrets.
 */
package org.leafid.server.database;
