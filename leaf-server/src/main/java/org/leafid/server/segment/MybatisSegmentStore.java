package org.leafid.server.segment;

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

/**
 * {@link SegmentStore} on {@code leaf_alloc} through MyBatis. A reservation is Leaf's
 * UPDATE-then-SELECT in one transaction: the UPDATE locks the row, so the SELECT reads the
 * {@code max_id} this transaction set and no other instance can get the same block.
 */
public final class MybatisSegmentStore implements SegmentStore {

    private final SqlSessionFactory sessions;

    public MybatisSegmentStore(DataSource dataSource) {
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
            throw new SegmentStoreException(tag, rootCause(e));
        }
    }

    @Override
    public List<String> tags() {
        try (SqlSession session = sessions.openSession(true)) {
            return List.copyOf(session.getMapper(LeafAllocMapper.class).tags());
        } catch (PersistenceException e) {
            throw new SegmentStoreException(null, rootCause(e));
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
