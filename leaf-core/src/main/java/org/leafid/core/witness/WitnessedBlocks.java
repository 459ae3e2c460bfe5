package org.leafid.core.witness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One key's part of a fleet-wide witness, as a value: the last blocks claimed (disjoint, sorted by
 * start), the end of the highest block ({@code high}) and of the highest block trimmed away
 * ({@code floor}). A block that overlaps a kept one, or starts below the floor, is a store that went
 * back. The same rule as leaf-redis's {@code claim.lua}, for stores that keep a value per key
 * (ZooKeeper).
 *
 * <p><b>Found twice.</b> When a block went back, the witness remembers the end it told the server to
 * carry the row past ({@code carried}). One database's rows only go up, so once a row was carried past
 * it, no block of that database reserved since can overlap a kept block and start at or above it; one
 * that does came from another database answering for the same row at the same time (a clone served
 * beside the original). The key is then marked {@code twice}, and every claim of it is refused until
 * an operator releases it ({@link #released}). {@code carried} is forgotten once the floor passes it
 * (64 blocks later), so that a second restore long after the first is a restore again.
 *
 * <p>Text: {@code high floor carried twice}, then one {@code start end} per line; a head of two
 * fields (the form before {@code carried}) is read as nothing carried.
 *
 * @param blocks {@code [start, end)} pairs, sorted by start
 * @param high {@link Long#MIN_VALUE} when nothing was claimed
 * @param floor {@link Long#MIN_VALUE} when nothing was trimmed
 * @param carried the highest end a went-back claim was answered with since the floor passed the last
 *     one; {@link Long#MIN_VALUE} when none
 * @param twice whether a claim proved two databases answer for this key at once
 */
public record WitnessedBlocks(List<long[]> blocks, long high, long floor, long carried, boolean twice) {

    public static final WitnessedBlocks EMPTY = new WitnessedBlocks(List.of(), Long.MIN_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE, false);

    /** What a claim found, and the value to write back ({@code next}; the same value when nothing changes). */
    public record Claimed(Outcome outcome, long witnessedEnd, WitnessedBlocks next) {}

    /** The three answers of a claim. */
    public enum Outcome {
        /** The block overlaps nothing: recorded. */
        RECORDED,
        /** The block overlaps what is witnessed: the row went back; carry it to {@code witnessedEnd}. */
        WENT_BACK,
        /** Two databases answer for this key at once; nothing is served until an operator releases it. */
        FOUND_TWICE
    }

    /** Claims {@code [start, end)}, keeping the last {@code keep} blocks. */
    public Claimed claim(long start, long end, int keep) {
        if (twice) {
            return new Claimed(Outcome.FOUND_TWICE, high, this);
        }
        boolean overlapsKept = overlapsKept(start, end);
        if (!overlapsKept && start >= floor) {
            return new Claimed(Outcome.RECORDED, Long.MIN_VALUE, with(start, end, keep));
        }
        if (overlapsKept && carried != Long.MIN_VALUE && start >= carried) {
            return new Claimed(Outcome.FOUND_TWICE, high, new WitnessedBlocks(blocks, high, floor, carried, true));
        }
        return new Claimed(Outcome.WENT_BACK, high,
                new WitnessedBlocks(blocks, high, floor, Math.max(carried, high), false));
    }

    /** The key released by an operator: claimed again as before, nothing carried. */
    public WitnessedBlocks released() {
        return new WitnessedBlocks(blocks, high, floor, Long.MIN_VALUE, false);
    }

    private boolean overlapsKept(long start, long end) {
        for (long[] block : blocks) {
            if (block[0] < end && block[1] > start) {
                return true;
            }
        }
        return false;
    }

    /** With {@code [start, end)} added (it must not overlap), keeping the last {@code keep} blocks. */
    private WitnessedBlocks with(long start, long end, int keep) {
        List<long[]> added = new ArrayList<>(blocks.size() + 1);
        int at = 0;
        while (at < blocks.size() && blocks.get(at)[0] < start) {
            at++;
        }
        added.addAll(blocks.subList(0, at));
        added.add(new long[] {start, end});
        added.addAll(blocks.subList(at, blocks.size()));
        long newFloor = floor;
        while (added.size() > keep) {
            newFloor = Math.max(newFloor, added.remove(0)[1]);
        }
        long stillCarried = newFloor >= carried ? Long.MIN_VALUE : carried;
        return new WitnessedBlocks(List.copyOf(added), Math.max(high, end), newFloor, stillCarried, false);
    }

    public byte[] toBytes() {
        StringBuilder text = new StringBuilder().append(high).append(' ').append(floor).append(' ').append(carried)
                .append(' ').append(twice ? 1 : 0);
        for (long[] block : blocks) {
            text.append('\n').append(block[0]).append(' ').append(block[1]);
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** @throws WitnessException when the bytes are not this form: never read as "nothing witnessed" */
    public static WitnessedBlocks parse(byte[] bytes, String where) {
        try {
            String[] lines = new String(bytes, StandardCharsets.US_ASCII).split("\n");
            String[] head = lines[0].split(" ");
            if (head.length != 2 && head.length != 4) {
                throw new IllegalArgumentException("the first line has " + head.length + " fields");
            }
            List<long[]> blocks = new ArrayList<>(lines.length - 1);
            for (int i = 1; i < lines.length; i++) {
                String[] pair = lines[i].split(" ");
                blocks.add(new long[] {Long.parseLong(pair[0]), Long.parseLong(pair[1])});
            }
            long carried = head.length == 4 ? Long.parseLong(head[2]) : Long.MIN_VALUE;
            boolean twice = head.length == 4 && switch (head[3]) {
                case "0" -> false;
                case "1" -> true;
                default -> throw new IllegalArgumentException("twice is " + head[3]);
            };
            return new WitnessedBlocks(List.copyOf(blocks), Long.parseLong(head[0]), Long.parseLong(head[1]), carried,
                    twice);
        } catch (RuntimeException e) {
            throw new WitnessException(where + " is not a witness of blocks ('high floor carried twice', then"
                    + " 'start end' lines); nothing is served until it is repaired or deleted by an operator who"
                    + " knows what was served", e);
        }
    }
}
