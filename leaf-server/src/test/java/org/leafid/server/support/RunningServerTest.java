package org.leafid.server.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.BeforeEach;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.snowflake.SnowflakeLayout;
import org.leafid.testing.TcpProxy;
import org.leafid.testing.jdbc.TestDatabase;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The base of the HTTP tests of one real server on a random port ({@code @SpringBootTest} with
 * {@code RANDOM_PORT}), {@code leaf_alloc} in the MySQL-protocol test database: the client, the
 * beans the tests look into, and a tag the server serves from the start.
 */
public abstract class RunningServerTest {

    protected static final TestDatabase DATABASE = TestDatabase.get();

    @LocalServerPort
    protected int port;

    @Autowired
    protected SegmentAllocator allocator;

    @Autowired
    protected SnowflakeLayout layout;

    protected Http http;

    @BeforeEach
    void connectTheClient() {
        http = new Http(port);
    }

    /** A proxy to the test database, for a test that cuts the server off from it. */
    protected static TcpProxy proxyToTheDatabase() {
        String[] target = DATABASE.hostAndPort();
        try {
            return new TcpProxy(target[0], Integer.parseInt(target[1]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new tag in {@code leaf_alloc}, which the server serves once this returns. */
    protected String newServedTag(String prefix, long maxId, int step) {
        String tag = DATABASE.newTag(prefix, maxId, step);
        assertThat(allocator.refresh().added()).contains(tag);
        return tag;
    }
}
