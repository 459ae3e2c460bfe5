package org.leafid.client;

import java.util.function.ToDoubleFunction;

/**
 * What the client counts: batches fetched, refusals, failed server attempts, bad answers, IDs buffered. The
 * Micrometer implementation is made only when a registry is given, so no Micrometer class is
 * loaded otherwise.
 */
interface ClientMeters {

    ClientMeters NONE = new ClientMeters() {};

    /** The meters of one buffer. */
    default ClientMeters forSource(String mode, String key, IdSource source) {
        return this;
    }

    default void fetched(int ids) {}

    default void refused() {}

    default void serverFailed(String server) {}

    /** An answer of {@code server} refused by a check (also a server failure). */
    default void badAnswer(String server, String check) {}

    /** A gauge of the servers up now. */
    default <T> void servers(T pool, ToDoubleFunction<T> up) {}
}
