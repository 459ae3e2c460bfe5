package org.leafid.jdbc.stores;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;
import org.leafid.jdbc.segment.LeafAllocTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code leaf_alloc} tables of several stores as one, for the tags view, the admin API and the
 * formats: a tag is created and its step changed in every store that answers (a store that does not
 * lacks the tag until an operator creates it there; its blocks come from the others meanwhile); a
 * row is shown with the highest {@code max_id} of the stores that answer.
 */
public final class SeveralLeafAllocTables implements LeafAllocTable {

    private static final Logger log = LoggerFactory.getLogger(SeveralLeafAllocTables.class);

    private final List<LeafAllocTable> tables;

    /** @param tables the stores' tables, in the order of {@code leaf.jdbc.stores} */
    public SeveralLeafAllocTables(List<LeafAllocTable> tables) {
        this.tables = List.copyOf(tables);
    }

    @Override
    public List<TagRow> rows() {
        Map<String, TagRow> highest = new TreeMap<>();
        for (List<TagRow> rows : fromEvery("read", LeafAllocTable::rows)) {
            rows.forEach(row -> highest.merge(row.tag(), row, SeveralLeafAllocTables::higher));
        }
        return List.copyOf(highest.values());
    }

    @Override
    public Optional<TagRow> row(String tag) {
        return fromEvery("read", table -> table.row(tag)).stream().flatMap(Optional::stream)
                .max(Comparator.comparingLong(TagRow::maxId));
    }

    @Override
    public Optional<TagRow> insert(String tag, long maxId, int step, String description) {
        return fromEvery("create tag '" + tag + "' in", table -> table.insert(tag, maxId, step, description)).stream()
                .flatMap(Optional::stream).findFirst();
    }

    @Override
    public Optional<TagRow> changeStep(String tag, int step) {
        return fromEvery("change the step of tag '" + tag + "' in", table -> table.changeStep(tag, step)).stream()
                .flatMap(Optional::stream).max(Comparator.comparingLong(TagRow::maxId));
    }

    /** The highest mark of every store: all must answer, since a store not read may hold the highest. */
    @Override
    public long highestMark(String tag) {
        long highest = 0;
        for (LeafAllocTable table : tables) {
            highest = Math.max(highest, table.highestMark(tag));
        }
        return highest;
    }

    @Override
    public void createIfMissing(String tag, int step, String description) {
        fromEvery("create tag '" + tag + "' in", table -> {
            table.createIfMissing(tag, step, description);
            return Boolean.TRUE;
        });
    }

    /**
     * The answer of every store that gives one; a store that fails is named once at WARN. When none
     * answers, the first store's failure is thrown.
     */
    private <T> List<T> fromEvery(String action, Function<LeafAllocTable, T> request) {
        List<T> answers = new ArrayList<>();
        RuntimeException first = null;
        List<String> failed = new ArrayList<>();
        for (int k = 0; k < tables.size(); k++) {
            try {
                answers.add(request.apply(tables.get(k)));
            } catch (RuntimeException e) {
                first = first == null ? e : first;
                failed.add("leaf.jdbc.stores[" + k + "]: " + e.getMessage());
            }
        }
        if (answers.isEmpty()) {
            throw first;
        }
        if (!failed.isEmpty() && action.equals("read")) {
            log.debug("Read leaf_alloc from the stores that answered: {}", String.join("; ", failed));
        } else if (!failed.isEmpty()) {
            log.warn("Could not {} every store: {}. The stores that answered have it; do the same on the others"
                    + " when they answer (docs/databases.md, \"Several stores\")", action, String.join("; ", failed));
        }
        return answers;
    }

    private static TagRow higher(TagRow a, TagRow b) {
        return a.maxId() >= b.maxId() ? a : b;
    }
}
