package org.leafid.jdbc;

import com.alibaba.druid.pool.DruidDataSource;
import javax.sql.DataSource;
import org.apache.ibatis.session.SqlSessionFactory;

/** How messages name the database of Leaf's sessions: the pool's url (callers strip its password). */
public final class PoolUrls {

    private PoolUrls() {}

    /** The sessions' database: the pool's url, or a name for it. */
    public static String of(SqlSessionFactory sessions) {
        return of(sessions.getConfiguration().getEnvironment().getDataSource());
    }

    /** The pool's url when it is Leaf's own Druid pool; an application's pool is named as such. */
    public static String of(DataSource dataSource) {
        return dataSource instanceof DruidDataSource pool ? pool.getUrl() : "the application's DataSource";
    }
}
