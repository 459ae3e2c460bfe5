package org.leafid.autoconfigure.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * README SYNC CHECK: the section "Embedding Leaf in your application" of the repository's
 * README.md shows {@link OrderApplication} and {@link OrderIds} verbatim, so the example a
 * reader copies is the one {@link EmbeddingExampleTest} runs. Every non-blank line of each file
 * must be a line of that section (trailing spaces aside), in the file's order. When this fails
 * after a change to the example, paste the changed file into that section; when it fails after a
 * README edit, restore the example there. (Written before the section exists: it fails until the
 * README has it.)
 */
class ReadmeExampleTest {

    private static final Path README = Path.of("../README.md");
    private static final String SECTION = "Embedding Leaf in your application";
    private static final Path EXAMPLE_SOURCES = Path.of("src/test/java/org/leafid/autoconfigure/example");

    @Test
    void readmeShowsTheExampleApplicationVerbatim() throws IOException {
        assertShownVerbatim("OrderApplication.java");
    }

    @Test
    void readmeShowsTheExampleServiceVerbatim() throws IOException {
        assertShownVerbatim("OrderIds.java");
    }

    private static void assertShownVerbatim(String file) throws IOException {
        List<String> readme = lines(README);
        int section = sectionStart(readme);
        assertThat(section).as("README.md has no heading '%s'", SECTION).isNotNegative();
        readme = readme.subList(0, sectionEnd(readme, section));
        List<String> source = lines(EXAMPLE_SOURCES.resolve(file)).stream().filter(line -> !line.isBlank()).toList();
        assertThat(source).as("the example %s", file).isNotEmpty();
        int at = section;
        for (String line : source) {
            int found = indexOf(readme, line, at);
            assertThat(found).as("README.md, section '%s', lacks this line of %s (or has it out of order "
                    + "after line %d):%n%s", SECTION, file, at, line).isNotNegative();
            at = found + 1;
        }
    }

    private static int sectionStart(List<String> readme) {
        for (int i = 0; i < readme.size(); i++) {
            if (headingLevel(readme.get(i)) > 0 && readme.get(i).contains(SECTION)) {
                return i;
            }
        }
        return -1;
    }

    /** The next heading of the same or a higher level outside a code block, or the end of the file. */
    private static int sectionEnd(List<String> readme, int section) {
        int level = headingLevel(readme.get(section));
        boolean inCode = false;
        for (int i = section + 1; i < readme.size(); i++) {
            String line = readme.get(i);
            if (line.startsWith("```")) {
                inCode = !inCode;
            }
            int other = headingLevel(line);
            if (!inCode && other > 0 && other <= level) {
                return i;
            }
        }
        return readme.size();
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
