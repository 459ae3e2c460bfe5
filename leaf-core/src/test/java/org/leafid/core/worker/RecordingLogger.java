package org.leafid.core.worker;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** A logger that keeps its lines, at every level, for tests that check what the operator reads. */
final class RecordingLogger extends LegacyAbstractLogger {

    /** One logged line, formatted. */
    record Line(Level level, String message) {}

    final List<Line> lines = new CopyOnWriteArrayList<>();

    RecordingLogger() {
        this.name = "recording";
    }

    List<Line> at(Level level) {
        return lines.stream().filter(line -> line.level() == level).toList();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
            Throwable throwable) {
        lines.add(new Line(level, MessageFormatter.basicArrayFormat(messagePattern, arguments)));
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }
}
