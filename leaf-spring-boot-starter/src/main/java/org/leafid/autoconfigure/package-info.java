/**
 * Leaf as Spring Boot auto-configuration: an application that adds this starter (the server is one)
 * gets the generators of the modes it switches on as beans, each of which gives way to a bean of the
 * same type the application defines. This package holds what every mode shares: the keys directly
 * under {@code leaf.} as a validated record, the clock and the sleeper, and the on/off condition
 * {@code @ConditionalOnLeafSwitch}, which binds a value as the records do (where
 * {@code @ConditionalOnProperty} compared strings, so {@code enable=yes} meant two things). Also what
 * guards the start: {@code leaf.properties} read from the working directory, the jar's directory and
 * the classpath; unknown {@code leaf.*} keys refused, naming the closest valid one; and failure
 * analyzers that end a refused start with the key and the fix instead of a stack trace, and the shape
 * of the refreshers that re-read a list from the database. Each mode's auto-configuration is in a
 * sub-package: {@code jdbc} (which database), {@code segment}, {@code snowflake}, {@code shard},
 * {@code client}; {@code mode} is which modes are on, {@code properties} binds every record.
 */
package org.leafid.autoconfigure;
