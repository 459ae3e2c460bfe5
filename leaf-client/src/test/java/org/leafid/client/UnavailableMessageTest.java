package org.leafid.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.leafid.testing.client.LeafAnswers;
import org.leafid.testing.client.SocketHttpServer;

/**
 * When no ID comes within {@code maxWait}, the exception says what was asked for and whom to check: the
 * servers' addresses, which an operator reading an application's log cannot know otherwise.
 */
class UnavailableMessageTest {

    @Test
    void theMessageNamesTheModeOnceAndTheServersAsked() throws IOException {
        // A server that answers a byte a second: nothing arrives within the 300 ms the caller waits.
        try (SocketHttpServer slow = SocketHttpServer.start(LeafAnswers.drip(Duration.ofSeconds(1)));
                LeafClient client = LeafClient.builder().servers(slow.url()).requestTimeout(Duration.ofSeconds(5))
                        .maxWait(Duration.ofMillis(300)).build()) {

            LeafUnavailableException snowflake = catchThrowableOfType(LeafUnavailableException.class,
                    () -> client.snowflake().nextId());
            LeafUnavailableException segment = catchThrowableOfType(LeafUnavailableException.class,
                    () -> client.segment("order").nextId());

            assertThat(snowflake.getMessage()).startsWith("No IDs of snowflake within 300 ms")
                    .doesNotContain("snowflake snowflake").contains(slow.url());
            assertThat(segment.getMessage()).startsWith("No IDs of segment order within 300 ms").contains(slow.url());
        }
    }
}
