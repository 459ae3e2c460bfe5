package org.leafid.core.segment;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link SegmentIdGenerator} per tag that the store lists, and follows the store
 * through {@link #refresh()}: rows inserted appear, rows deleted stop being served.
 */
public final class SegmentAllocator {

    private static final Logger log = LoggerFactory.getLogger(SegmentAllocator.class);

    private final SegmentStore store;
    private final SegmentSettings settings;
    private final InstantSource clock;
    private final Executor loader;
    private final SegmentTagListener tagListener;
    /** What its tags are, for the log: the segment tags of leaf_alloc, or shard mode's (app:shard) pairs. */
    private final String subject;
    private final Map<String, SegmentIdGenerator> generators = new ConcurrentHashMap<>();
    private volatile boolean tagsLoaded;
    /** Why the last read of the tag list failed, or null when it succeeded. */
    private volatile RuntimeException lastRefreshFailure;

    public SegmentAllocator(SegmentStore store, SegmentSettings settings, InstantSource clock, Executor loader) {
        this(store, settings, clock, loader, SegmentTagListener.NONE);
    }

    public SegmentAllocator(SegmentStore store, SegmentSettings settings, InstantSource clock, Executor loader,
            SegmentTagListener tagListener) {
        this(store, settings, clock, loader, tagListener, "Segment tags");
    }

    /** @param subject what the tags are, as the log names them ("Segment tags") */
    public SegmentAllocator(SegmentStore store, SegmentSettings settings, InstantSource clock, Executor loader,
            SegmentTagListener tagListener, String subject) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.loader = loader;
        this.tagListener = tagListener;
        this.subject = subject;
    }

    /**
     * The next ID of a tag.
     *
     * @throws UnknownTagException when the tag was not in the store at the last refresh
     */
    public long nextId(String tag) {
        return generator(tag).nextId();
    }

    /**
     * The next {@code count} IDs of a tag, unique and increasing.
     *
     * @throws UnknownTagException when the tag was not in the store at the last refresh
     */
    public long[] nextIds(String tag, int count) {
        return generator(tag).nextIds(count);
    }

    /**
     * The next {@code count} IDs of a tag as runs of consecutive numbers (see {@link IdRanges}).
     *
     * @throws UnknownTagException when the tag was not in the store at the last refresh
     */
    public IdRanges nextRanges(String tag, int count) {
        return generator(tag).nextRanges(count);
    }

    /**
     * The generator the allocator keeps for a tag.
     *
     * @throws UnknownTagException when the tag was not in the store at the last refresh
     * @throws SegmentStoreException when the tag list has never been read: whether the tag exists
     *     is not known, and the failure that kept the list from being read is the answer
     */
    public SegmentIdGenerator generator(String tag) {
        SegmentIdGenerator generator = generators.get(tag);
        if (generator == null) {
            RuntimeException failure = lastRefreshFailure;
            if (!tagsLoaded && failure != null) {
                String reason = failure instanceof SegmentStoreException store ? store.reason() : failure.toString();
                throw new SegmentStoreException(tag, reason, failure);
            }
            throw new UnknownTagException(tag);
        }
        return generator;
    }

    /**
     * Reads the tag list from the store and adds or drops generators to match it. Synchronized:
     * a refresh working from an older listing must not drop a tag a concurrent one just added.
     *
     * @return what changed
     * @throws org.leafid.core.segment.SegmentStoreException when the store cannot list its tags; the
     *     tags already known keep serving
     */
    public synchronized Refresh refresh() {
        Set<String> listed;
        try {
            listed = new HashSet<>(store.tags());
        } catch (RuntimeException e) {
            lastRefreshFailure = e;
            throw e;
        }
        lastRefreshFailure = null;
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (String tag : listed) {
            generators.computeIfAbsent(tag, newTag -> {
                added.add(newTag);
                return newGenerator(newTag);
            });
        }
        for (String tag : Set.copyOf(generators.keySet())) {
            if (!listed.contains(tag)) {
                generators.remove(tag);
                removed.add(tag);
            }
        }
        added.forEach(tag -> tagListener.tagAdded(generators.get(tag)));
        removed.forEach(tagListener::tagRemoved);
        tagsLoaded = true;
        if (!added.isEmpty() || !removed.isEmpty()) {
            log.info("{} refreshed: {} served, added {}, removed {}", subject, generators.size(), added, removed);
        }
        return new Refresh(added, removed);
    }

    /**
     * Retries the load of every tag that has nothing left to issue because its last load failed.
     *
     * @return how many loads were started
     */
    public int retryStarved() {
        int started = 0;
        for (SegmentIdGenerator generator : generators.values()) {
            if (generator.retryIfStarved()) {
                started++;
            }
        }
        return started;
    }

    /** Why the last read of the tag list failed, or null when it succeeded (or none was tried). */
    public RuntimeException lastRefreshFailure() {
        return lastRefreshFailure;
    }

    /** Whether the tag list has been read at least once. */
    public boolean tagsLoaded() {
        return tagsLoaded;
    }

    /** Each tag's buffer, sorted by tag. */
    public Map<String, SegmentBufferView> views() {
        Map<String, SegmentBufferView> views = new TreeMap<>();
        generators.forEach((tag, generator) -> views.put(tag, generator.view()));
        return views;
    }

    private SegmentIdGenerator newGenerator(String tag) {
        return new SegmentIdGenerator(tag, store, settings, clock, loader);
    }

    /** Tags that a refresh added and removed. */
    public record Refresh(List<String> added, List<String> removed) {}
}
