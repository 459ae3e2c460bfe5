package org.leafid.jdbc.stores;

import java.util.ArrayList;
import java.util.List;
import org.leafid.core.segment.Stripes;

/**
 * How the fleet's stores share the numbers now: from {@code base}, stripes of {@code width} dealt in
 * turn to the member stores, in the order of their places in {@code leaf.jdbc.stores}. Adding or
 * retiring a store makes a new numbering, of the next generation, whose base lies above every number
 * any store reserved before ({@link StoreFleet#renumber}), so the numberings never meet either.
 *
 * @param members a bit per place of {@code leaf.jdbc.stores} (bit k: store k is a member)
 */
public record Numbering(long generation, long base, long width, long members) {

    /** The most stores a fleet lists (one bit each). */
    public static final int MOST_STORES = 63;

    public boolean member(int place) {
        return place >= 0 && place < MOST_STORES && (members >>> place & 1) == 1;
    }

    /** The places of the member stores, in order. */
    public List<Integer> places() {
        List<Integer> places = new ArrayList<>();
        for (int place = 0; place < MOST_STORES; place++) {
            if (member(place)) {
                places.add(place);
            }
        }
        return places;
    }

    /** The numbers of the store at {@code place}, a member. */
    public Stripes stripes(int place) {
        if (!member(place)) {
            throw new IllegalArgumentException("store " + place + " is not a member of numbering " + generation);
        }
        return new Stripes(base, width, Long.bitCount(members), Long.bitCount(members & ((1L << place) - 1)));
    }

    static long maskOf(Iterable<Integer> places) {
        long mask = 0;
        for (int place : places) {
            mask |= 1L << place;
        }
        return mask;
    }
}
