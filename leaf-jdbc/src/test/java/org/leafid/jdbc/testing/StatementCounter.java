package org.leafid.jdbc.testing;

import com.alibaba.druid.filter.FilterChain;
import com.alibaba.druid.filter.FilterEventAdapter;
import com.alibaba.druid.pool.DruidDataSource;
import com.alibaba.druid.proxy.jdbc.ConnectionProxy;
import com.alibaba.druid.proxy.jdbc.StatementProxy;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts, at the pool, the statements sent and the commits asked for: the round trips of a store's call. */
public final class StatementCounter extends FilterEventAdapter {

    private final AtomicInteger statements = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();

    /** A counter on {@code pool}, which must not have been used yet. */
    public static StatementCounter on(DruidDataSource pool) {
        StatementCounter counter = new StatementCounter();
        pool.setProxyFilters(List.of(counter));
        return counter;
    }

    public void reset() {
        statements.set(0);
        commits.set(0);
    }

    public int statements() {
        return statements.get();
    }

    public int commits() {
        return commits.get();
    }

    @Override
    protected void statementExecuteBefore(StatementProxy statement, String sql) {
        statements.incrementAndGet();
    }

    @Override
    public void connection_commit(FilterChain chain, ConnectionProxy connection) throws SQLException {
        commits.incrementAndGet();
        super.connection_commit(chain, connection);
    }
}
