/**
 * Start-up: the {@code leaf.*} keys as validated records, the {@code @Configuration} classes that
 * make each mode's beans ({@code leaf_alloc}'s data source, the segment allocator, the worker-id
 * registry and holder, the snowflake generator, the clock, the shared meters), and the
 * conditions that switch them ({@code @ConditionalOnLeafSwitch}, {@code @ConditionalOnWorkerIdMode},
 * which bind values as the records do, where {@code @ConditionalOnProperty} compared strings).
 * Also what guards the start: {@code leaf.properties} read from the working directory, the jar's
 * directory and the classpath; unknown {@code leaf.*} keys refused, naming the closest valid one;
 * failure analyzers that end a refused start with the key and the fix instead of a stack trace.
 */
package org.leafid.server.config;
