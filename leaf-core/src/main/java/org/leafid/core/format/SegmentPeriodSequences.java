package org.leafid.core.format;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.leafid.core.IdGenerator;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentIdGenerator;
import org.leafid.core.segment.SegmentTagCreator;
import org.leafid.core.segment.UnknownTagException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A format's numbers from segment tags: the tag itself when the format never resets, else
 * {@code <tag>@<period>} ({@code order@20261127}), a {@code leaf_alloc} row like any other,
 * created by whichever server needs it first, its numbers starting at 1. Its blocks are reserved
 * as every tag's are, so two servers never serve the same number of a period, whatever their clocks.
 */
public final class SegmentPeriodSequences implements PeriodSequences {

    private static final Logger log = LoggerFactory.getLogger(SegmentPeriodSequences.class);

    private final String format;
    private final String tag;
    private final int step;
    private final SegmentAllocator allocator;
    private final SegmentTagCreator creator;
    private final Executor preparer;
    /** Every period's generator this format used, to count what it issued (a generator counts from its blocks). */
    private final Map<String, SegmentIdGenerator> used = new ConcurrentHashMap<>();

    /**
     * @param step the step of the rows it creates
     * @param preparer runs {@link #prepare} (the segment loader will do)
     */
    public SegmentPeriodSequences(String format, String tag, int step, SegmentAllocator allocator,
            SegmentTagCreator creator, Executor preparer) {
        this.format = format;
        this.tag = tag;
        this.step = step;
        this.allocator = allocator;
        this.creator = creator;
        this.preparer = preparer;
    }

    /** The tag of a period: {@code <tag>@<period>}, or the tag itself without a reset. */
    public String tagOf(String period) {
        return period.isEmpty() ? tag : tag + "@" + period;
    }

    @Override
    public IdGenerator sequence(String period) {
        SegmentIdGenerator generator = generator(period);
        used.put(period, generator);
        return generator;
    }

    @Override
    public OptionalLong nextNumber(String period) {
        return OptionalLong.of(generator(period).peekNext());
    }

    @Override
    public long issuedCount() {
        long issued = 0;
        for (SegmentIdGenerator generator : used.values()) {
            issued += generator.issuedCount();
        }
        return issued;
    }

    private SegmentIdGenerator generator(String period) {
        String periodTag = tagOf(period);
        try {
            return allocator.generator(periodTag);
        } catch (UnknownTagException missing) {
            creator.createIfMissing(periodTag, step, "format " + format + (period.isEmpty() ? "" : ", period " + period));
            allocator.refresh();
            return allocator.generator(periodTag);
        }
    }

    /** Creates the period's row and loads its first block, in the background; a failure is retried at first use. */
    @Override
    public void prepare(String period) {
        try {
            preparer.execute(() -> {
                try {
                    generator(period).prepare();
                } catch (RuntimeException e) {
                    log.warn("Format '{}': could not prepare period {} ({}); its first number will wait for the"
                            + " database", format, period, e.getMessage());
                }
            });
        } catch (RejectedExecutionException e) {
            log.warn("Format '{}': could not prepare period {} (the loader is full); its first number will wait for"
                    + " the database", format, period);
        }
    }
}
