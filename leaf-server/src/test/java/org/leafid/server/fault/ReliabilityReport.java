package org.leafid.server.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import org.apache.zookeeper.Version;

/** Writes {@code RELIABILITY.md}: the machine, the command, and one row per scenario. */
final class ReliabilityReport {

    private ReliabilityReport() {}

    static void write(Path file, List<ScenarioResult> results, long suiteMillis, String databaseVersion) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Reliability\n\n")
                .append("Figures of the last run of the fault suite (`leaf-server/src/test/java/org/leafid/server/fault/`, ")
                .append("see \"Reliability\" in docs/how-it-works.md). The suite writes this file to ")
                .append("`leaf-server/target/reports/` at the end of every full run, failures included, and ")
                .append("`ops/publish-test-reports.sh` copies it here; the numbers are measured, not edited. ")
                .append("Each scenario starts real server ")
                .append("processes (`java -Xmx256m ").append(String.join(" ", ServerProcess.SHORT_LIVED))
                .append(" -jar leaf-server/target/leaf-server.jar`) on 127.0.0.1, loads them ")
                .append("from concurrent HTTP clients in the test JVM, breaks something, and checks every ID issued ")
                .append("(sorted, scanned for duplicates). Scenarios run in two lanes at once, so a scenario's load ")
                .append("shares the machine with another's. Server logs of the run: `leaf-server/target/fault-logs/`.\n\n");
        md.append("- Date: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append('\n')
                .append("- Machine: ").append(Machine.describe()).append('\n')
                .append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.runtime.version")).append(" (test JVM and servers)\n")
                .append("- Database: ").append(databaseVersion).append("; ZooKeeper ")
                .append(Version.getFullVersion().split("[ -]")[0])
                .append(" in-process (curator-test `TestingServer`, `TestingCluster` of 3)\n")
                .append("- Command: `").append(Machine.command()).append("`\n")
                .append("- Suite time: ").append(String.format(Locale.ROOT, "%.0f s", suiteMillis / 1000.0))
                .append(" for ").append(results.size()).append(" scenarios\n\n");
        md.append("| Scenario | Load held | Fault | IDs checked | Duplicates | Errors returned | Recovery |\n")
                .append("|---|---|---|---:|---:|---|---|\n");
        for (ScenarioResult r : results) {
            md.append("| ").append(cell(r.name)).append(" | ").append(cell(r.load)).append(" | ").append(cell(r.fault))
                    .append(" | ").append(String.format(Locale.ROOT, "%,d", r.idsChecked))
                    .append(" | ").append(r.duplicates < 0 ? "—" : Long.toString(r.duplicates))
                    .append(" | ").append(cell(r.errors)).append(" | ").append(cell(r.recovery))
                    .append(r.failure == null ? "" : " **FAILED: " + cell(r.failure) + "**").append(" |\n");
        }
        md.append("\nErrors are the answers the load clients got, as `mode status problem-type`; ")
                .append("`no answer (…)` is a request that got no HTTP answer (the process was down). ")
                .append("Clients pause 20 ms after an error, as a client honouring `Retry-After` loosely would.\n");
        for (ScenarioResult r : results) {
            if (r.notes.isEmpty()) {
                continue;
            }
            md.append("\n## ").append(r.name).append(" (").append(String.format(Locale.ROOT, "%.0f s", r.wallMillis / 1000.0))
                    .append(")\n\n");
            r.notes.forEach(note -> md.append("- ").append(note).append('\n'));
        }
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
