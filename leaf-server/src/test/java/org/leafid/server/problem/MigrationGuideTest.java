package org.leafid.server.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/migrating-from-meituan-leaf.md tells a team which answers differ from Meituan Leaf's. The
 * statuses and types it names are checked against {@link ProblemType}, so that the page follows
 * a change of either, and a difference a client must act on cannot go missing from it.
 */
class MigrationGuideTest {

    private static final Path PAGE = Path.of("../docs/migrating-from-meituan-leaf.md");

    /** Meituan Leaf's ZeroIDGen answered 200 and {@code 0} for a switched-off mode; callers stored the 0. */
    @Test
    void aSwitchedOffModeIsADifferenceWithItsStatusAndType() throws IOException {
        assertThat(differences())
                .contains(answer(ProblemType.MODE_DISABLED) + ", not `0`")
                .contains("leaf.segment.enable=false")
                .contains("leaf.snowflake.enable=false")
                .contains("HTTP 200 with the body `0`");
    }

    @Test
    void anUnknownTagIsADifferenceWithItsStatusAndType() throws IOException {
        assertThat(differences()).contains("an unknown tag is " + answer(ProblemType.UNKNOWN_TAG));
    }

    /** As the page writes an answer: {@code 404 `mode-disabled`}. */
    private static String answer(ProblemType type) {
        return type.status().value() + " `" + type.type() + "`";
    }

    /** The section "What differs, and why", up to the next heading, with line breaks as spaces. */
    private static String differences() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        int start = page.indexOf("What differs, and why:");
        assertThat(start).as("%s has the section \"What differs, and why:\"", PAGE).isNotNegative();
        int end = page.indexOf("\n## ", start);
        return page.substring(start, end < 0 ? page.length() : end).replaceAll("\\s+", " ");
    }
}
