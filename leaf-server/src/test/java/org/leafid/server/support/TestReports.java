package org.leafid.server.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where tests put what a person reads afterwards (the fault suite's {@code RELIABILITY.md}, the
 * status page screenshot): {@code target/reports/} of the module, never the source tree, so a
 * test run leaves the work tree as it was. {@code ops/publish-test-reports.sh} copies them into
 * the repository when they are to be published.
 */
public final class TestReports {

    private TestReports() {}

    /** {@code name} in the reports directory, which is created when missing. */
    public static Path file(String name) throws IOException {
        // Set by the poms to the module's target/reports; the fallback is the same for a run from the module directory.
        Path directory = Path.of(System.getProperty("leaftest.reports", "target/reports")).toAbsolutePath();
        return Files.createDirectories(directory).resolve(name);
    }
}
