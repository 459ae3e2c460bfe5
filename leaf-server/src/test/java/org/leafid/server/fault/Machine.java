package org.leafid.server.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** What the figures were measured on, and with which command. */
final class Machine {

    private Machine() {}

    static String describe() {
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch"));
        String memory = firstValue(Path.of("/proc/meminfo"), "MemTotal")
                .map(kb -> String.format(Locale.ROOT, "%.0f GiB", Long.parseLong(kb.replaceAll("\\D", "")) / 1048576.0))
                .orElse("unknown memory");
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), " + memory + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /** The Maven command line that runs the suite (Maven exports its arguments to forked JVMs). */
    static String command() {
        String arguments = System.getenv("MAVEN_CMD_LINE_ARGS");
        StringBuilder command = new StringBuilder();
        for (String variable : new String[] {"CI", "LEAF_TEST_JDBC_URL", "LEAF_TEST_JDBC_USER"}) {
            String value = System.getenv(variable);
            if (value != null) {
                command.append(variable).append('=').append(value).append(' ');
            }
        }
        return command.append("./mvnw ").append(arguments == null ? "-B verify" : arguments.trim()).toString();
    }

    private static Optional<String> firstValue(Path file, String key) {
        try {
            return Files.readAllLines(file).stream().filter(line -> line.startsWith(key))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
