package org.leafid.client;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IdLinesTest {

    @Test
    void readsOneIdPerLine() throws Exception {
        assertThat(IdLines.parse("1\n22\n9223372036854775807\n".getBytes(US_ASCII), 3))
                .containsExactly(1, 22, Long.MAX_VALUE);
    }

    @Test
    void answerCutWithinTheLastLineIsRefusedWhole() {
        assertThatThrownBy(() -> IdLines.parse("1\n2\n3".getBytes(US_ASCII), 3))
                .isInstanceOf(BadAnswerException.class).hasMessageContaining("cut within line 3");
    }

    @Test
    void answerCutAtALineEndIsRefusedWhole() {
        assertThatThrownBy(() -> IdLines.parse("1\n2\n".getBytes(US_ASCII), 3))
                .isInstanceOf(BadAnswerException.class).hasMessageContaining("2 complete lines of 3");
    }

    @Test
    void moreIdsThanAskedForAreRefused() {
        assertThatThrownBy(() -> IdLines.parse("1\n2\n3\n".getBytes(US_ASCII), 2))
                .isInstanceOf(BadAnswerException.class);
    }

    @Test
    void anythingButDigitsAndLineEndsIsRefused() {
        for (String body : new String[] {"1\n-2\n", "1\n\n", "1\r\n2\r\n", "[\"1\",\"2\"]", "<html>\n"}) {
            assertThatThrownBy(() -> IdLines.parse(body.getBytes(US_ASCII), 2)).as(body)
                    .isInstanceOf(BadAnswerException.class);
        }
    }

    @Test
    void anIdAboveTheLargestLongIsRefused() {
        assertThatThrownBy(() -> IdLines.parse("9223372036854775808\n".getBytes(US_ASCII), 1))
                .isInstanceOf(BadAnswerException.class).hasMessageContaining("2^63-1");
        assertThatThrownBy(() -> IdLines.parse("99999999999999999999\n".getBytes(US_ASCII), 1))
                .isInstanceOf(BadAnswerException.class);
    }
}
