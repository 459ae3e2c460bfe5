/**
 * The Java client of the Leaf server, plain Java 17 ({@code java.net.http}) and SLF4J: IDs fetched
 * in batches and served from memory ({@code PrefetchBuffer}), servers tried in turn with a
 * back-off for a failing one ({@code ServerPool}), typed exceptions for a refused request and for
 * no server answering in time.
 */
package org.leafid.client;
