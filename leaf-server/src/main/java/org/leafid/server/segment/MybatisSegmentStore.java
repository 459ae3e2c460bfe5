package org.leafid.server.segment;

import com.alibaba.druid.pool.DruidDataSource;
import java.util.List;
import javax.sql.DataSource;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.leafid.core.SegmentStoreException;
import org.leafid.core.TagExhaustedException;
import org.leafid.core.UnknownTagException;
import org.leafid.core.segment.AllocRow;
import org.leafid.core.segment.SegmentStore;
import org.leafid.server.database.SqlFailures;

/**
 * {@link SegmentStore} on {@code leaf_alloc} through MyBatis. A reservation is Leaf's
 * UPDATE-then-SELECT in one transaction: the UPDATE locks the row, so the SELECT reads the
 * {@code max_id} this transaction set and no other instance can get the same block.
 *
 * <p>A failure becomes a {@link SegmentStoreException} whose reason names the database (its url
 * without password), says whether it could not be reached or answered with an error, and what
 * to change; its cause keeps the whole JDBC chain for {@link SqlFailures#classify}.
 */
public final class MybatisSegmentStore implements SegmentStore {

    /** The script that creates the table, named in the hint when it is missing. */
    public static final String TABLE_SCRIPT = "sql/leaf_alloc.sql";

    private final SqlSessionFactory sessions;
    private final String url;

    public MybatisSegmentStore(DataSource dataSource) {
        this.url = dataSource instanceof DruidDataSource pool ? pool.getUrl() : "the database of leaf.jdbc.url";
        Configuration configuration = new Configuration(
                new Environment("leaf", new JdbcTransactionFactory(), dataSource));
        configuration.addMapper(LeafAllocMapper.class);
        this.sessions = new SqlSessionFactoryBuilder().build(configuration);
    }

    @Override
    public AllocRow reserve(String tag, long requestedStep) {
        if (requestedStep < 1) {
            throw new IllegalArgumentException("requestedStep must be at least 1: " + requestedStep);
        }
        try (SqlSession session = sessions.openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            int updated = mapper.advanceMaxId(tag, requestedStep);
            AllocRow row = mapper.find(tag);
            session.commit();
            if (row == null) {
                throw new UnknownTagException(tag);
            }
            if (updated == 0) {
                throw new TagExhaustedException(tag, row.maxId(), Math.max(requestedStep, row.step()));
            }
            return row;
        } catch (PersistenceException e) {
            throw new SegmentStoreException(tag, "no block could be reserved in leaf_alloc: " + explain(e), e);
        }
    }

    @Override
    public List<String> tags() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(LeafAllocMapper.class).tags());
        } catch (PersistenceException e) {
            throw new SegmentStoreException(null, "leaf_alloc cannot be read: " + explain(e), e);
        }
    }

    private String explain(PersistenceException e) {
        return SqlFailures.describe(e, url) + SqlFailures.hint(e, TABLE_SCRIPT);
    }
}
