package org.leafid.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.autoconfigure.jdbc.LeafDataSource;
import org.leafid.core.segment.SegmentAllocator;
import org.leafid.core.segment.SegmentBufferView;
import org.leafid.server.LeafServerApplication;
import org.leafid.server.support.Http;
import org.leafid.server.support.TestReports;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The status page as a browser renders it: the real server on the embedded default, driven by
 * headless Chromium in a separate process. Also writes {@code target/reports/status-page.png},
 * which {@code ops/publish-test-reports.sh} copies to {@code docs/status-page.png}, docs/operations.md's
 * screenshot, so the picture can always show the page as it is.
 *
 * <p>Chromium ({@code apt-get install -y chromium}) is required when {@code CI} is set, as the
 * test database is; elsewhere its absence skips the test with a message.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatusPageBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    /** Generous for a cold start of the browser on a loaded CI machine, yet a hang still ends the test. */
    private static final Duration BROWSER_TIMEOUT = Duration.ofSeconds(60);
    private static final String SAMPLE_TAG = "leaf-segment-test";
    private static final int WORKER_ID = 421;
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private ConfigurableApplicationContext server;
    private String pageUrl;

    @BeforeAll
    void startServerWithSomeUsage(@TempDir Path dataDir) {
        requireChromium();
        server = new SpringApplicationBuilder(LeafServerApplication.class).run("--server.port=0",
                "--leaf.snowflake.port=18095", "--leaf.data-dir=" + dataDir,
                "--leaf.snowflake.local.worker-id=" + WORKER_ID);
        int port = server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        pageUrl = "http://127.0.0.1:" + port + "/";

        // Two more tags so the page (and the screenshot in docs/operations.md) shows the states a row can be in.
        insertTag("order", 1000);
        insertTag("payment", 5000);
        SegmentAllocator allocator = server.getBean(SegmentAllocator.class);
        allocator.refresh();

        Http http = new Http(port);
        for (int i = 0; i < 300; i++) {
            http.getId("/api/segment/get/" + SAMPLE_TAG);
        }
        for (int i = 0; i < 870; i++) {
            allocator.nextId("order");
        }
        // Past 10 % the next block loads in the background; wait for it so the page is settled.
        await().atMost(Duration.ofSeconds(10)).until(() -> nextReady(allocator, SAMPLE_TAG)
                && nextReady(allocator, "order"));
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void renderedDomShowsTitleTagsUsageAndWorkerId(@TempDir Path browserDir) throws IOException {
        Path dom = browserDir.resolve("dom.html");

        runChromium(browserDir, dom, "--dump-dom", pageUrl);

        String html = Files.readString(dom, StandardCharsets.UTF_8);
        assertThat(html).contains("<title>Leaf status</title>", "<h1>Leaf status</h1>", SAMPLE_TAG,
                "id=\"worker-id\">" + WORKER_ID + "<", "15 % used", "87 % used", "none loaded yet");
    }

    @Test
    void screenshotIsWrittenToTheReports(@TempDir Path browserDir) throws IOException {
        Path png = TestReports.file("status-page.png");
        // An old picture left in place must not pass for a new one.
        Files.deleteIfExists(png);

        runChromium(browserDir, browserDir.resolve("screenshot.out"), "--window-size=1200,1000",
                "--hide-scrollbars", "--screenshot=" + png, pageUrl);

        assertThat(png).exists();
        assertThat(Files.size(png)).as("size of %s", png).isGreaterThan(5 * 1024);
        byte[] head;
        try (InputStream in = Files.newInputStream(png)) {
            head = in.readNBytes(PNG_SIGNATURE.length);
        }
        assertThat(head).as("PNG signature of %s", png).isEqualTo(PNG_SIGNATURE);
    }

    private void insertTag(String tag, int step) {
        DataSource dataSource = server.getBean(LeafDataSource.class).dataSource();
        String sql = "INSERT INTO leaf_alloc(biz_tag, max_id, step, description) VALUES (?, 1, ?, 'status page')";
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, tag);
            insert.setInt(2, step);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not insert tag " + tag, e);
        }
    }

    private static boolean nextReady(SegmentAllocator allocator, String tag) {
        SegmentBufferView view = allocator.views().get(tag);
        return view != null && view.nextReady();
    }

    /** The same policy as the test database: required on CI, a skip with instructions elsewhere. */
    private static void requireChromium() {
        if (Files.isExecutable(CHROMIUM)) {
            return;
        }
        String how = "No headless browser for the status page test: " + CHROMIUM
                + " is missing; install chromium (Debian: apt-get install -y chromium)";
        if (System.getenv("CI") != null) {
            throw new IllegalStateException(how);
        }
        // Surefire keeps an abort's reason in its reports only; the build output says why here.
        System.out.println("[skipped] " + how);
        Assumptions.abort(how);
    }

    /**
     * Runs headless Chromium once with a profile of its own, standard output to {@code stdout};
     * kills it (and the renderer processes it started) if it outlives {@link #BROWSER_TIMEOUT}.
     */
    private static void runChromium(Path browserDir, Path stdout, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + browserDir.resolve("profile")));
        command.addAll(Arrays.asList(arguments));
        Path stderr = browserDir.resolve("chromium.err");
        Process process = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        process.getOutputStream().close(); // it reads nothing; an open pipe must not keep it waiting
        try {
            if (!process.waitFor(BROWSER_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError("chromium did not finish within " + BROWSER_TIMEOUT.toSeconds() + " s: "
                        + command + "\n" + tail(stderr));
            }
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for chromium", e);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("chromium exited with " + process.exitValue() + ": " + command + "\n"
                    + tail(stderr));
        }
    }

    private static String tail(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
