package org.leafid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One line per cause per interval, one when the database answers again; time is a settable counter. */
class DatabaseOutageLogTest {

    private static final SQLException REFUSED = new SQLNonTransientConnectionException("link failure", "08S01",
            new ConnectException("Connection refused"));
    private static final SQLException NO_TABLE = new SQLSyntaxErrorException("no leaf_alloc", "42S02", 1146);

    private final AtomicLong nanos = new AtomicLong();
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private DatabaseOutageLog outageLog;

    @BeforeEach
    void capture() {
        Logger logger = (Logger) LoggerFactory.getLogger("test.outage." + System.identityHashCode(this));
        logger.setLevel(Level.INFO);
        logger.addAppender(lines);
        lines.start();
        outageLog = new DatabaseOutageLog(logger, Duration.ofSeconds(60), nanos::get);
    }

    @Test
    void repeatsOfOneCauseAreOneLinePerIntervalWithTheCountLeftOut() {
        for (int second = 0; second < 125; second++) {
            nanos.set(Duration.ofSeconds(second).toNanos());
            outageLog.failed(REFUSED, "leaf_alloc cannot be read");
        }

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "leaf_alloc cannot be read",
                "leaf_alloc cannot be read (59 more failed attempts since the last line)",
                "leaf_alloc cannot be read (59 more failed attempts since the last line)");
        assertThat(lines.list).allSatisfy(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.WARN);
            assertThat(line.getThrowableProxy()).isNull();
        });
    }

    @Test
    void aNewCauseIsLoggedAtOnceAndRecoveryOnce() {
        outageLog.failed(REFUSED, "refused");
        outageLog.failed(NO_TABLE, "no table");
        outageLog.answered("The database");
        outageLog.answered("The database");

        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly("refused", "no table",
                "The database answers again after 2 failed attempts; segment IDs are served");
        assertThat(lines.list.get(2).getLevel()).isEqualTo(Level.INFO);
    }
}
