package org.leafid.core;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Names threads after their job and makes them daemons, so a stuck one never holds the JVM. */
public final class DaemonThreads implements ThreadFactory {

    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    public DaemonThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable runnable) {
        Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
