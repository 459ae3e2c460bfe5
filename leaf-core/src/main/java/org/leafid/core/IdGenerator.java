package org.leafid.core;

/** Issues unique 64-bit IDs; implementations are thread-safe. */
@FunctionalInterface
public interface IdGenerator {

    /**
     * Returns the next ID.
     *
     * @throws LeafException when no ID can be issued that is certain to be unique
     */
    long nextId();
}
