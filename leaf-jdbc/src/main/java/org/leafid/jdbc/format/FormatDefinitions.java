package org.leafid.jdbc.format;

import java.util.function.Supplier;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.format.FormatDefinitionRegistry;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.PoolUrls;
import org.leafid.jdbc.SqlDialect;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.TableScripts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one definition of each format's tag, in {@code leaf_format}: the first server to use a tag
 * records its definition with one INSERT that only one server can win (the primary key refuses every
 * other), and every server reads the recorded one back. A recorded definition is never overwritten
 * here. The table is created on first use when missing.
 */
public final class FormatDefinitions implements FormatDefinitionRegistry {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = SqlDialect.scripts("leaf_format.sql");

    private static final Logger log = LoggerFactory.getLogger(FormatDefinitions.class);
    private static final int MAX_DEFINITION = 512;

    private final SqlSessionFactory sessions;
    private final String url;

    /** @param sessions Leaf's one session factory ({@code LeafSqlSessions}) */
    public FormatDefinitions(SqlSessionFactory sessions) {
        this.sessions = sessions;
        this.url = PoolUrls.of(sessions);
    }

    @Override
    public String claim(String tag, String definition) {
        if (definition.length() > MAX_DEFINITION) {
            throw new IllegalArgumentException("a format definition must be at most " + MAX_DEFINITION
                    + " characters: " + definition);
        }
        String recorded = withTable("read the definition of format tag " + tag, () -> read(tag));
        if (recorded != null) {
            return recorded;
        }
        try (SqlSession session = sessions.openSession(true)) {
            session.getMapper(FormatDefinitionMapper.class).insert(tag, definition);
            return definition;
        } catch (PersistenceException e) {
            if (!SqlFailures.duplicateKey(e)) {
                throw failure(e, "record the definition of format tag " + tag);
            }
        }
        return read(tag); // another server recorded it first
    }

    private String read(String tag) {
        try (SqlSession session = sessions.openSession(true)) {
            return session.getMapper(FormatDefinitionMapper.class).definition(tag);
        }
    }

    /** Runs {@code read}; when the table is missing, creates it and runs it again. */
    private <T> T withTable(String action, Supplier<T> read) {
        try {
            return TableScripts.readCreatingWhenMissing(sessions, "leaf_format.sql", read, () -> log.info(
                    "Created the table leaf_format, which keeps the one definition of each format's tag ({})",
                    TABLE_SCRIPT));
        } catch (PersistenceException e) {
            throw failure(e, action);
        }
    }

    private SegmentStoreException failure(PersistenceException e, String action) {
        return new SegmentStoreException(null, "could not " + action + " in leaf_format: "
                + SqlFailures.describe(e, url) + SqlFailures.hint(e, TABLE_SCRIPT), e);
    }
}
