package org.leafid.core.witness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One key's part of a fleet-wide witness, as a value: the last blocks claimed (disjoint, sorted by
 * start), the end of the highest block ({@code high}) and of the highest block trimmed away
 * ({@code floor}). A block that overlaps a kept one, or starts below the floor, is a store that went
 * back. The same rule as leaf-redis's {@code claim.lua}, for stores that keep a value per key
 * (ZooKeeper). Text: {@code high floor}, then one {@code start end} per line.
 *
 * @param blocks {@code [start, end)} pairs, sorted by start
 * @param high {@link Long#MIN_VALUE} when nothing was claimed
 * @param floor {@link Long#MIN_VALUE} when nothing was trimmed
 */
public record WitnessedBlocks(List<long[]> blocks, long high, long floor) {

    public static final WitnessedBlocks EMPTY = new WitnessedBlocks(List.of(), Long.MIN_VALUE, Long.MIN_VALUE);

    /** The end to skip to when {@code [start, end)} overlaps what is witnessed; {@link Long#MIN_VALUE} when it does not. */
    public long overlap(long start, long end) {
        if (start < floor) {
            return high;
        }
        for (long[] block : blocks) {
            if (block[0] < end && block[1] > start) {
                return high;
            }
        }
        return Long.MIN_VALUE;
    }

    /** With {@code [start, end)} added (it must not overlap), keeping the last {@code keep} blocks. */
    public WitnessedBlocks with(long start, long end, int keep) {
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
        return new WitnessedBlocks(List.copyOf(added), Math.max(high, end), newFloor);
    }

    public byte[] toBytes() {
        StringBuilder text = new StringBuilder().append(high).append(' ').append(floor);
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
            List<long[]> blocks = new ArrayList<>(lines.length - 1);
            for (int i = 1; i < lines.length; i++) {
                String[] pair = lines[i].split(" ");
                blocks.add(new long[] {Long.parseLong(pair[0]), Long.parseLong(pair[1])});
            }
            return new WitnessedBlocks(List.copyOf(blocks), Long.parseLong(head[0]), Long.parseLong(head[1]));
        } catch (RuntimeException e) {
            throw new WitnessException(where + " is not a witness of blocks ('high floor', then 'start end' lines);"
                    + " nothing is served until it is repaired or deleted by an operator who knows what was served", e);
        }
    }
}
