package org.leafid.jdbc;

import com.alibaba.druid.pool.DruidDataSource;
import javax.sql.DataSource;
import org.apache.ibatis.session.SqlSessionFactory;

/** How messages name the database of Leaf's sessions: the pool's url (callers strip its password). */
public final class PoolUrls {

    /** The name of the pool of store k of {@code leaf.jdbc.stores}: this prefix, then k. */
    public static final String STORE_POOL_PREFIX = "leaf-store-";

    private PoolUrls() {}

    /** The sessions' database: the pool's url, or a name for it. */
    public static String of(SqlSessionFactory sessions) {
        return of(sessions.getConfiguration().getEnvironment().getDataSource());
    }

    /**
     * The configuration keys under which the sessions' database is set: {@code leaf.jdbc} (its
     * {@code .url}, {@code .username}, {@code .password}), or {@code leaf.jdbc.stores[k]} for the
     * pool of store k of several (named {@value #STORE_POOL_PREFIX}k), so that a hint names the
     * key to check.
     */
    public static String configurationKey(SqlSessionFactory sessions) {
        DataSource dataSource = sessions.getConfiguration().getEnvironment().getDataSource();
        if (dataSource instanceof DruidDataSource pool && pool.getName() != null
                && pool.getName().matches(STORE_POOL_PREFIX + "\\d+")) {
            return "leaf.jdbc.stores[" + pool.getName().substring(STORE_POOL_PREFIX.length()) + "]";
        }
        return "leaf.jdbc";
    }

    /** The pool's url when it is Leaf's own Druid pool; an application's pool is named as such. */
    public static String of(DataSource dataSource) {
        return dataSource instanceof DruidDataSource pool ? pool.getUrl() : "the application's DataSource";
    }
}
