/**
 * The Java client of a Leaf server, with no framework: {@link org.leafid.client.LeafClient} asks the
 * servers for batches of IDs ({@code ?count=N}) and hands them out from memory, a double buffer per
 * tag, for snowflake, and per shard-mode app and shard. The next batch is fetched in the background
 * before the current one runs out, and its size follows the rate of use (about one fetch per
 * 100 ms). Every answer is checked before any ID of it is handed out (the count, a size limit, a
 * deadline for the whole answer, IDs above 0, the app and shard, the order of its mode; see the
 * docs/client.md). Servers are asked in turn: a connect failure, a timeout, a 5xx, a redirect
 * (never followed) or an answer that fails a check marks one down for a back-off (the server's {@code Retry-After}
 * when it sends one) and the next is asked; a 4xx is the caller's mistake and becomes a
 * {@link org.leafid.client.LeafRequestException} at once. When every server is down the buffer is
 * served to its end, then a call waits up to a bound and throws
 * {@link org.leafid.client.LeafUnavailableException}. Only {@code java.net.http}, SLF4J, and
 * Micrometer when a registry is given.
 */
package org.leafid.client;
