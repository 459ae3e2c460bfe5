package org.leafid.client;

import java.util.function.IntSupplier;
import java.util.function.ToDoubleFunction;

/**
 * What the client counts: batches fetched, refusals, failed server attempts, bad answers, IDs buffered. The
 * Micrometer implementation is made only when a registry is given, so no Micrometer class is
 * loaded otherwise.
 */
interface ClientMeters {

    ClientMeters NONE = new ClientMeters() {};

    /** The meters of one buffer; {@code buffered} tells how many IDs or strings it holds. */
    default ClientMeters forSource(String mode, String key, IntSupplier buffered) {
        return this;
    }

    default void fetched(int ids) {}

    default void refused() {}

    /** An answer of {@code mode} (segment) that came as {@code ranges} runs of consecutive IDs. */
    default void rangesReceived(String mode, int ranges) {}

    /**
     * A request to {@code server} that failed, and why: {@code connection}, {@code timeout},
     * {@code status} (5xx, 408, 429), {@code redirect} (3xx, not followed) or {@code bad-answer}.
     */
    default void serverFailed(String server, String reason) {}

    /** An answer of {@code server} refused by a check (also a server failure). */
    default void badAnswer(String server, String check) {}

    /** A gauge of the servers up now. */
    default <T> void servers(T pool, ToDoubleFunction<T> up) {}
}
