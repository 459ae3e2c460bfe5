/**
 * The Spring Boot application that serves leaf-core's generators over HTTP. Its sub-packages
 * split by concern: {@code config} turns the {@code leaf.*} keys into beans, {@code segment} and
 * {@code worker} are the backends of the two modes, {@code database} reads JDBC failures,
 * {@code web} and {@code admin} are the HTTP side, {@code metrics} the meters, and {@code fault}
 * the test-only clock of the fault suite.
 */
package org.leafid.server;
