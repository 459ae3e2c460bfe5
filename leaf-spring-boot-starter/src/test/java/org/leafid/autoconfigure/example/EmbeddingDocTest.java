package org.leafid.autoconfigure.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The section "The application" of docs/embedding.md shows {@link OrderApplication} and
 * {@link OrderIds} verbatim, so the example a reader copies is the one {@link EmbeddingExampleTest}
 * runs. Every non-blank line of each file must be a line of that section (trailing spaces aside),
 * in the file's order. When this fails after a change to the example, paste the changed file into
 * that section; when it fails after an edit of the page, restore the example there.
 */
class EmbeddingDocTest {

    private static final String SECTION = "The application";
    private static final Path EXAMPLE_SOURCES = Path.of("src/test/java/org/leafid/autoconfigure/example");

    @Test
    void pageShowsTheExampleApplicationVerbatim() throws IOException {
        assertShownVerbatim("OrderApplication.java");
    }

    @Test
    void pageShowsTheExampleServiceVerbatim() throws IOException {
        assertShownVerbatim("OrderIds.java");
    }

    private static void assertShownVerbatim(String file) throws IOException {
        List<String> page = EmbeddingDoc.lines();
        int section = sectionStart(page);
        assertThat(section).as("%s has no heading '%s'", EmbeddingDoc.PAGE, SECTION).isNotNegative();
        page = page.subList(0, sectionEnd(page, section));
        List<String> source = lines(EXAMPLE_SOURCES.resolve(file)).stream().filter(line -> !line.isBlank()).toList();
        assertThat(source).as("the example %s", file).isNotEmpty();
        int at = section;
        for (String line : source) {
            int found = indexOf(page, line, at);
            assertThat(found).as("%s, section '%s', lacks this line of %s (or has it out of order "
                    + "after line %d):%n%s", EmbeddingDoc.PAGE, SECTION, file, at, line).isNotNegative();
            at = found + 1;
        }
    }

    private static int sectionStart(List<String> page) {
        for (int i = 0; i < page.size(); i++) {
            if (headingLevel(page.get(i)) > 0 && page.get(i).contains(SECTION)) {
                return i;
            }
        }
        return -1;
    }

    /** The next heading of the same or a higher level outside a code block, or the end of the file. */
    private static int sectionEnd(List<String> page, int section) {
        int level = headingLevel(page.get(section));
        boolean inCode = false;
        for (int i = section + 1; i < page.size(); i++) {
            String line = page.get(i);
            if (line.startsWith("```")) {
                inCode = !inCode;
            }
            int other = headingLevel(line);
            if (!inCode && other > 0 && other <= level) {
                return i;
            }
        }
        return page.size();
    }

    private static int headingLevel(String line) {
        int level = 0;
        while (level < line.length() && line.charAt(level) == '#') {
            level++;
        }
        return level > 0 && level < line.length() && line.charAt(level) == ' ' ? level : 0;
    }

    private static int indexOf(List<String> lines, String wanted, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).equals(wanted)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::stripTrailing).toList();
    }
}
