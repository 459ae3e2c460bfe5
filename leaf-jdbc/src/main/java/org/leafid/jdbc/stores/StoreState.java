package org.leafid.jdbc.stores;

/** What a server does with a store of {@code leaf.jdbc.stores} ({@code leaf.jdbc.stores[k].state}). */
public enum StoreState {
    /** Gives blocks under the fleet's numbering. */
    MEMBER,
    /** Listed, reachable, and becomes a member at the next renumbering (adding a store). */
    JOINING,
    /** Retired from the fleet: never connected to; its place stays so that the others keep theirs. */
    RETIRED
}
