/**
 * What the server knows about its database apart from any one table: how a JDBC failure is to be
 * read (unreachable, or an answer that says the configuration is wrong), how a JDBC url is
 * shown without its secrets, and where the embedded H2 default lives and how its schema is made.
 */
package org.leafid.server.database;
