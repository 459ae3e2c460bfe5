package org.leafid.autoconfigure.jdbc;

import javax.sql.DataSource;

/**
 * The database Leaf uses ({@link LeafJdbcAutoConfiguration} says which), with what messages call it.
 *
 * @param dataSource the pool
 * @param url its url for messages (callers strip the password), or a name when it is the application's
 * @param embedded whether it is the embedded H2 file database of the server's default
 * @param own whether the pool is Leaf's own, closed with the context; the application's is left to it
 */
public record LeafDataSource(DataSource dataSource, String url, boolean embedded, boolean own)
        implements AutoCloseable {

    @Override
    public void close() throws Exception {
        if (own && dataSource instanceof AutoCloseable pool) {
            pool.close();
        }
    }
}
