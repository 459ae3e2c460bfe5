package org.leafid.testing;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Signals to a test's own child process: {@code SIGSTOP} freezes it as a stalled VM or a long pause
 * would, {@code SIGCONT} lets it go on. Nothing is sent to a process that is not running.
 */
public final class ProcessSignals {

    private ProcessSignals() {
    }

    /** @param signal the name without {@code SIG}: {@code STOP}, {@code CONT} */
    public static void send(Process process, String signal, String what) throws IOException, InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " (" + what + ") failed");
        }
    }
}
