package org.leafid.server.admin;

import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.leafid.server.database.SqlFailures;
import org.leafid.server.segment.LeafAllocMapper;
import org.leafid.server.segment.LeafAllocMapper.TagRow;

/**
 * The {@code leaf_alloc} rows as the tags view and the admin API see them, through
 * {@link LeafAllocMapper}: plain statements with bound parameters, so a change made here is
 * exactly an operator's SQL edit and every instance picks it up the same way.
 *
 * <p>Not the {@code SegmentStore} bean: that type is what the allocator injects, and a second
 * bean of it would make that injection ambiguous.
 */
final class TagTable {

    private final SqlSessionFactory sessions;

    TagTable(DataSource dataSource) {
        Configuration configuration = new Configuration(
                new Environment("leaf-admin", new JdbcTransactionFactory(), dataSource));
        configuration.addMapper(LeafAllocMapper.class);
        this.sessions = new SqlSessionFactoryBuilder().build(configuration);
    }

    /** Every row, sorted by tag. */
    List<TagRow> rows() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(LeafAllocMapper.class).rows());
        } catch (PersistenceException e) {
            throw new TagTableException("read", e);
        }
    }

    Optional<TagRow> row(String tag) {
        try (SqlSession session = sessions.openSession(true)) {
            return Optional.ofNullable(session.getMapper(LeafAllocMapper.class).row(tag));
        } catch (PersistenceException e) {
            throw new TagTableException("read", e);
        }
    }

    /**
     * Inserts a row and returns it as stored (with the database's {@code update_time}).
     *
     * @return empty when the tag already has a row: the primary key refused the insert
     */
    Optional<TagRow> insert(String tag, long maxId, int step, String description) {
        try (SqlSession session = sessions.openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            mapper.insert(tag, maxId, step, description);
            TagRow row = mapper.row(tag);
            session.commit();
            return Optional.of(row);
        } catch (PersistenceException e) {
            if (SqlFailures.duplicateKey(e)) {
                return Optional.empty();
            }
            throw new TagTableException("insert into", e);
        }
    }

    /**
     * Sets a row's step and returns the row after the change.
     *
     * @return empty when the tag has no row
     */
    Optional<TagRow> changeStep(String tag, int step) {
        try (SqlSession session = sessions.openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            // The row read back decides, not the update count: MySQL counts an unchanged row as
            // 0 unless the driver reports found rows.
            mapper.updateStep(tag, step);
            TagRow row = mapper.row(tag);
            session.commit();
            return Optional.ofNullable(row);
        } catch (PersistenceException e) {
            throw new TagTableException("update", e);
        }
    }
}
