package org.leafid.jdbc.worker.mysql;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import com.alibaba.druid.pool.DruidDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.testing.TcpProxy;
import org.leafid.testing.WorkerIdRegistryOutageContractTest;
import org.leafid.core.worker.InstanceAddress;
import org.leafid.core.worker.ReservationFile;
import org.leafid.core.worker.WorkerCacheFiles;
import org.leafid.core.worker.WorkerIdRegistry;
import org.leafid.jdbc.session.LeafSqlSessions;
import org.leafid.testing.jdbc.TestDatabase;

/**
 * The worker-id registry contract for {@code mysql} on the real test database, reached through
 * a {@link TcpProxy} that outages cut. Instances use an IP of this test's own, so tests sharing
 * {@code leaf_workerid_alloc} do not see each other's rows; they are deleted afterwards.
 */
class MysqlWorkerIdRegistryContractTest extends WorkerIdRegistryOutageContractTest {

    private final TestDatabase database = database();
    private final String ip = "10.5." + ThreadLocalRandom.current().nextInt(256) + "."
            + ThreadLocalRandom.current().nextInt(1, 255);
    private final List<DruidDataSource> pools = new ArrayList<>();
    private TcpProxy proxy;

    @TempDir
    Path dataDir;

    @BeforeEach
    void openProxy() throws IOException {
        // Deleted rows leave AUTO_INCREMENT where it was; back to max(id) + 1 keeps row ids below 1024.
        database.resetWorkerRowIds();
        String[] target = database.hostAndPort();
        proxy = new TcpProxy(target[0], Integer.parseInt(target[1]));
    }

    @AfterEach
    void cleanUp() throws IOException {
        proxy.close();
        pools.forEach(DruidDataSource::close);
        database.update("DELETE FROM leaf_workerid_alloc WHERE ip = ?", ip);
    }

    /** The database the rows go to: the MySQL-protocol test database here, PostgreSQL in a subclass. */
    TestDatabase database() {
        return TestDatabase.get();
    }

    MysqlWorkerIdRegistryContractTest() {
        super(Restart.KEEPS_ID);
    }

    /**
     * Through the proxy, with the waits the server sets by default (leaf.jdbc.connect-timeout, 2 s):
     * twelve instances open their first connections at once, and on a loaded machine one PostgreSQL
     * connection took more than the 1 s this test used to give.
     */
    @Override
    protected WorkerIdRegistry registry(int instance) {
        DruidDataSource pool = database.newPool();
        pools.add(pool);
        pool.setUrl(database.urlThrough(proxy));
        pool.setMaxWait(2_000);
        pool.setConnectTimeout(2_000);
        pool.setSocketTimeout(2_000);
        pool.setBreakAfterAcquireFailure(false);
        return new MysqlWorkerIdRegistry(LeafSqlSessions.create(pool), address(instance), cache(instance));
    }

    /** The instance's row is held by a process whose last write is long past: one that stopped without a release. */
    @Override
    protected void abandon(int instance) {
        database.update("UPDATE leaf_workerid_alloc SET update_time = TIMESTAMP '2000-01-01 00:00:00' "
                + "WHERE ip_port = ? AND holder IS NOT NULL", address(instance).key());
    }

    @Override
    protected SameAddress sameAddress() {
        return SameAddress.REFUSED;
    }

    @Override
    protected void cutBackend() {
        proxy.cut();
    }

    @Override
    protected void restoreBackend() {
        proxy.restore();
    }

    @Override
    protected List<String> outageErrorNames(int instance) {
        return List.of("leaf.jdbc.url", "no cached id is safe", "then start again");
    }

    private ReservationFile cache(int instance) {
        return new WorkerCacheFiles(dataDir, "leaf", 8080 + instance).registry();
    }

    private InstanceAddress address(int instance) {
        return new InstanceAddress(ip, 8080 + instance);
    }
}
