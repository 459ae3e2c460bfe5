package org.leafid.core.witness;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One key's part of a fleet-wide witness, as a value: the last blocks claimed (disjoint, sorted by
 * start), the end of the highest block ({@code high}) and of the highest block trimmed away
 * ({@code floor}). A block that overlaps a kept one, or starts below the floor, is a store that went
 * back. The same rule as leaf-redis's {@code claim.lua}, for stores that keep a value per key
 * (ZooKeeper).
 *
 * <p>Each block keeps the id of the claim that recorded it: a claim sent again (a client's retry after
 * its write landed) finds its own block and is answered "recorded", not taken for a store that went back.
 *
 * <p><b>Found twice.</b> When a block went back, the witness remembers the end it told the server to
 * carry the row past ({@code carried}). One database's rows only go up, so once a row was carried past
 * it, no block of that database reserved since can overlap a kept block and start at or above it; one
 * that does came from another database answering for the same row (a clone served beside the original,
 * or an old primary's block claimed late). The first such block is carried past like any other; a
 * second one before the floor passes {@code carried} proves two databases at once, and the key is
 * found twice: every claim of it is refused until an operator releases it ({@link #released}).
 * {@code carried} and the count are forgotten once the floor passes it (64 blocks later), so that a
 * second restore long after the first is a restore again.
 *
 * <p>Text: {@code high floor carried impossible}, then one {@code start end claim} per line; the form
 * before claims were named (a head of two fields, lines of two) is read as nothing carried.
 *
 * @param blocks sorted by start
 * @param high {@link Long#MIN_VALUE} when nothing was claimed
 * @param floor {@link Long#MIN_VALUE} when nothing was trimmed
 * @param carried the highest end a went-back claim was answered with since the floor passed the last
 *     one; {@link Long#MIN_VALUE} when none
 * @param impossible blocks seen since then that one database cannot give (2: found twice)
 */
public record WitnessedBlocks(List<Block> blocks, long high, long floor, long carried, int impossible) {

    public static final WitnessedBlocks EMPTY = new WitnessedBlocks(List.of(), Long.MIN_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE, 0);
    /** Impossible blocks that make a key found twice. */
    private static final int TWICE = 2;

    /** A block {@code [start, end)} and the id of the claim that recorded it. */
    public record Block(long start, long end, String claim) {}

    /** What a claim found, and the value to write back ({@code next}; this value when nothing changes). */
    public record Claimed(Outcome outcome, long witnessedEnd, WitnessedBlocks next) {}

    /** The three answers of a claim. */
    public enum Outcome {
        /** The block overlaps nothing (or is this claim's own, sent again): recorded. */
        RECORDED,
        /** The block overlaps what is witnessed: the row went back; carry it to {@code witnessedEnd}. */
        WENT_BACK,
        /** Two databases answer for this key at once; nothing is served until an operator releases it. */
        FOUND_TWICE
    }

    /** A new claim's id: the same for every retry of that claim, another for every other claim. */
    public static String newClaimId() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    public boolean twice() {
        return impossible >= TWICE;
    }

    /**
     * Claims {@code [start, end)}, keeping the last {@code keep} blocks.
     *
     * @param claim an id of this claim, the same when it is sent again (no spaces)
     */
    public Claimed claim(long start, long end, String claim, int keep) {
        if (twice()) {
            return new Claimed(Outcome.FOUND_TWICE, high, this);
        }
        for (Block block : blocks) {
            if (block.start() == start && block.end() == end && block.claim().equals(claim)) {
                return new Claimed(Outcome.RECORDED, Long.MIN_VALUE, this);
            }
        }
        boolean overlapsKept = overlapsKept(start, end);
        if (!overlapsKept && start >= floor) {
            return new Claimed(Outcome.RECORDED, Long.MIN_VALUE, with(new Block(start, end, claim), keep));
        }
        int seen = impossible;
        if (overlapsKept && carried != Long.MIN_VALUE && start >= carried) {
            seen++;
            if (seen >= TWICE) {
                return new Claimed(Outcome.FOUND_TWICE, high, new WitnessedBlocks(blocks, high, floor, carried, seen));
            }
        }
        return new Claimed(Outcome.WENT_BACK, high,
                new WitnessedBlocks(blocks, high, floor, Math.max(carried, high), seen));
    }

    /** The key released by an operator: claimed again as before, nothing carried. */
    public WitnessedBlocks released() {
        return new WitnessedBlocks(blocks, high, floor, Long.MIN_VALUE, 0);
    }

    private boolean overlapsKept(long start, long end) {
        for (Block block : blocks) {
            if (block.start() < end && block.end() > start) {
                return true;
            }
        }
        return false;
    }

    /** With {@code added} (it must not overlap), keeping the last {@code keep} blocks. */
    private WitnessedBlocks with(Block added, int keep) {
        List<Block> kept = new ArrayList<>(blocks.size() + 1);
        int at = 0;
        while (at < blocks.size() && blocks.get(at).start() < added.start()) {
            at++;
        }
        kept.addAll(blocks.subList(0, at));
        kept.add(added);
        kept.addAll(blocks.subList(at, blocks.size()));
        long newFloor = floor;
        while (kept.size() > keep) {
            newFloor = Math.max(newFloor, kept.remove(0).end());
        }
        boolean forgotten = carried != Long.MIN_VALUE && newFloor >= carried;
        return new WitnessedBlocks(List.copyOf(kept), Math.max(high, added.end()), newFloor,
                forgotten ? Long.MIN_VALUE : carried, forgotten ? 0 : impossible);
    }

    public byte[] toBytes() {
        StringBuilder text = new StringBuilder().append(high).append(' ').append(floor).append(' ').append(carried)
                .append(' ').append(impossible);
        for (Block block : blocks) {
            text.append('\n').append(block.start()).append(' ').append(block.end()).append(' ').append(block.claim());
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
            List<Block> blocks = new ArrayList<>(lines.length - 1);
            for (int i = 1; i < lines.length; i++) {
                String[] fields = lines[i].split(" ");
                if (fields.length != 2 && fields.length != 3) {
                    throw new IllegalArgumentException("line " + (i + 1) + " has " + fields.length + " fields");
                }
                blocks.add(new Block(Long.parseLong(fields[0]), Long.parseLong(fields[1]),
                        fields.length == 3 ? fields[2] : ""));
            }
            long carried = head.length == 4 ? Long.parseLong(head[2]) : Long.MIN_VALUE;
            int impossible = head.length == 4 ? Integer.parseInt(head[3]) : 0;
            if (impossible < 0 || impossible > TWICE) {
                throw new IllegalArgumentException("impossible is " + impossible);
            }
            return new WitnessedBlocks(List.copyOf(blocks), Long.parseLong(head[0]), Long.parseLong(head[1]), carried,
                    impossible);
        } catch (RuntimeException e) {
            throw new WitnessException(where + " is not a witness of blocks ('high floor carried impossible', then"
                    + " 'start end claim' lines); nothing is served until it is repaired or deleted by an operator who"
                    + " knows what was served", e);
        }
    }
}
