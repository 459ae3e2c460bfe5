package org.leafid.client;

import java.util.function.LongSupplier;

/**
 * A segment tag's answer: IDs above 0, strictly increasing, and reaching above the largest ID this
 * client has served of the tag. An answer wholly at or below it (a server that repeats itself, or
 * a {@code leaf_alloc} row set back) is a bad answer; one that only starts below it is accepted,
 * because a healthy server of the fleet is on an older block after a failover, and the buffer
 * serves it from above the mark only.
 */
final class SegmentAnswerCheck implements AnswerCheck {

    private final LongSupplier served;

    /** @param served the largest ID of the tag handed out so far (or about to be), {@code Long.MIN_VALUE} for none */
    SegmentAnswerCheck(LongSupplier served) {
        this.served = served;
    }

    @Override
    public Judge before(String server) {
        long floor = served.getAsLong();
        return ids -> {
            IdRules.positive(ids);
            IdRules.increasing(ids);
            if (ids.length > 0 && ids[ids.length - 1] <= floor) {
                throw new BadAnswerException("behind", "every ID is at or below " + floor + ", which this client "
                        + "has served already (was the leaf_alloc row set back?)");
            }
        };
    }
}
