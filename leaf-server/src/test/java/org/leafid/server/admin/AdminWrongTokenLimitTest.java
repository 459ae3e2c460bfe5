package org.leafid.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leafid.server.LeafServerApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The wrong-token limit (20 a minute per client address, then 429), alone and behind a proxy
 * ({@code leaf.admin.trusted-proxies}), black-box over raw HTTP from loopback addresses of the
 * test's choosing: the proxy is 127.0.0.2, clients are the addresses it forwards. Behind a trusted proxy one caller's wrong tokens lock out that caller, not
 * every operator behind the proxy; from an untrusted peer the header is ignored, so a client cannot
 * dodge the limit by inventing addresses.
 */
class AdminWrongTokenLimitTest {

    private static final String TOKEN = "proxied-admin-token-0123456789-abcdefghij";
    private static final String PROXY = "127.0.0.2";

    @TempDir
    Path dataDir;

    @Test
    void anAddressThatSentTwentyWrongTokensGets429WhileTheRightTokenWorksFromAnother() throws Exception {
        try (ConfigurableApplicationContext server = start()) {
            int port = port(server);
            for (int i = 0; i < 20; i++) {
                assertThat(refresh("127.0.0.2", port, "wrong-token-" + i, "127.0.0.9")).startsWith("HTTP/1.1 403");
            }
            String limited = refresh("127.0.0.2", port, "wrong-token-21", "127.0.0.9");
            assertThat(limited).startsWith("HTTP/1.1 429").contains("Retry-After: ").contains("too-many-wrong-tokens");
            // Refused without comparing, the right token included: guessing from there learns nothing.
            assertThat(refresh("127.0.0.2", port, TOKEN, "127.0.0.9")).startsWith("HTTP/1.1 429");
            assertThat(refresh("127.0.0.1", port, TOKEN, "127.0.0.9")).startsWith("HTTP/1.1 2");
            assertThat(refresh("127.0.0.1", port, "one-wrong-token", "127.0.0.9")).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void behindATrustedProxyTheLimitCountsTheForwardedClient() throws Exception {
        try (ConfigurableApplicationContext server = start("--leaf.admin.trusted-proxies=127.0.0.2/32,10.9.0.0/16")) {
            int port = port(server);
            for (int i = 0; i < 20; i++) {
                assertThat(refresh(PROXY, port, "wrong-token-" + i, "203.0.113.5")).startsWith("HTTP/1.1 403");
            }
            assertThat(refresh(PROXY, port, TOKEN, "203.0.113.5")).as("the guessing client").startsWith("HTTP/1.1 429");
            // Every other operator behind the same proxy still gets in.
            assertThat(refresh(PROXY, port, TOKEN, "203.0.113.9")).startsWith("HTTP/1.1 2");
            // A client's own claim left of what the proxies appended is not believed: the nearest untrusted hop counts.
            assertThat(refresh(PROXY, port, TOKEN, "198.51.100.1, 203.0.113.5, 10.9.0.4")).startsWith("HTTP/1.1 429");
            assertThat(refresh(PROXY, port, TOKEN, "203.0.113.5, 203.0.113.9")).startsWith("HTTP/1.1 2");
        }
    }

    @Test
    void fromAnUntrustedPeerTheForwardedHeaderIsIgnored() throws Exception {
        try (ConfigurableApplicationContext server = start("--leaf.admin.trusted-proxies=127.0.0.2")) {
            int port = port(server);
            for (int i = 0; i < 20; i++) {
                // A new invented address each time: all counted for the peer 127.0.0.3 all the same.
                assertThat(refresh("127.0.0.3", port, "wrong-token-" + i, "203.0.113." + i)).startsWith("HTTP/1.1 403");
            }
            assertThat(refresh("127.0.0.3", port, TOKEN, "203.0.113.200")).startsWith("HTTP/1.1 429");
            assertThat(refresh(PROXY, port, TOKEN, "203.0.113.200")).startsWith("HTTP/1.1 2");
        }
    }

    @Test
    void withoutTrustedProxiesEveryoneBehindOneAddressSharesItsLimitAsBefore() throws Exception {
        try (ConfigurableApplicationContext server = start()) {
            int port = port(server);
            for (int i = 0; i < 20; i++) {
                assertThat(refresh(PROXY, port, "wrong-token-" + i, "203.0.113.5")).startsWith("HTTP/1.1 403");
            }
            assertThat(refresh(PROXY, port, TOKEN, "203.0.113.9")).startsWith("HTTP/1.1 429");
        }
    }

    /** A refresh through the admin API from {@code source} (a loopback address), as raw HTTP. */
    private static String refresh(String source, int port, String token, String forwardedFor) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(source, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/admin/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\nX-Forwarded-For: " + forwardedFor + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    private ConfigurableApplicationContext start(String... extra) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0",
                "--leaf.snowflake.enable=false", "--leaf.data-dir=" + dataDir, "--leaf.admin.token=" + TOKEN));
        arguments.addAll(List.of(extra));
        return new SpringApplicationBuilder(LeafServerApplication.class).run(arguments.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext server) {
        return server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}
