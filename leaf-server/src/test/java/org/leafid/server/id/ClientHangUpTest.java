package org.leafid.server.id;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leafid.server.support.RunningServerTest;
import org.leafid.server.support.TestServerKeys;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A caller that hangs up while a large batch is being written (its timeout, a stopped process) is an
 * everyday event: the fast path logs it at DEBUG, not as an ERROR with Tomcat's stack trace, and the
 * IDs it was given are never served again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class ClientHangUpTest extends RunningServerTest {

    private static final int BATCH = 100_000;
    private static final int HANG_UPS = 4;

    @Autowired
    private MeterRegistry meters;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        TestServerKeys.onTheTestDatabase(registry, DATABASE, "hang-up");
        registry.add("leaf.max-batch", () -> Integer.toString(BATCH));
        registry.add("leaf.snowflake.port", () -> "18124");
    }

    @Test
    void aCallerThatHangsUpMidBatchIsOneDebugLineAndItsIdsAreNotServedAgain(CapturedOutput output)
            throws Exception {
        String tag = newServedTag("hang-up", 1, 1000);
        int logBefore = output.getAll().length();
        long highestSeen = 0;
        for (int i = 0; i < HANG_UPS; i++) {
            highestSeen = Math.max(highestSeen, hangUpAfterTheFirstBytes("/api/segment/get/" + tag + "?count=" + BATCH));
            hangUpAfterTheFirstBytes("/api/snowflake/get/any?count=" + BATCH);
        }

        // The server notices when its next write fails. A whole answer may fit in the sockets' buffers
        // before the reset arrives (a segment batch is 700 kB): most, not all, hang-ups are caught.
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (hangUpsCounted() < 2 * HANG_UPS && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(hangUpsCounted()).as("requests that ended in ClientAbortException").isGreaterThanOrEqualTo(HANG_UPS);
        assertThat(output.getAll().substring(logBefore)).as("the log of the hang-ups")
                .doesNotContain("ClientAbortException").doesNotContain(" ERROR ").doesNotContain(" WARN ");

        long[] next = Arrays.stream(http.get("/api/segment/get/" + tag + "?count=" + 1000).body().split("\n"))
                .mapToLong(Long::parseLong).toArray();
        Set<Long> distinct = new HashSet<>();
        for (long id : next) {
            assertThat(distinct.add(id)).as("%d served twice", id).isTrue();
            assertThat(id).as("an ID after the hang-ups").isGreaterThan(highestSeen);
        }
        assertThat(next).hasSize(1000);
    }

    /**
     * Asks for a batch, reads its first bytes, and resets the connection; returns the first ID it
     * read, which the batch after it must be above.
     */
    private long hangUpAfterTheFirstBytes(String path) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] start = new byte[1024];
            int read = in.readNBytes(start, 0, start.length);
            String head = new String(start, 0, read, StandardCharsets.US_ASCII);
            assertThat(head).startsWith("HTTP/1.1 200");
            String body = head.substring(head.indexOf("\r\n\r\n") + 4);
            socket.setSoLinger(true, 0); // a reset, as a killed process's socket sends
            return body.isEmpty() || body.indexOf('\n') < 0 ? 0 : Long.parseLong(body.substring(0, body.indexOf('\n')));
        }
    }

    private long hangUpsCounted() {
        return meters.find("http.server.requests").tag("exception", "ClientAbortException").timers().stream()
                .mapToLong(timer -> timer.count()).sum();
    }
}
