package org.leafid.server.fault;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A fault test of the full suite only: {@code ./mvnw -B verify -Pfault-suite} (what {@code .ci/run}
 * runs) includes it, the default {@code ./mvnw -B verify} leaves it out and runs one scenario per
 * store instead (MariaDB, PostgreSQL, Redis, ZooKeeper), so that the everyday loop stays short.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(FullFaultSuite.TAG)
public @interface FullFaultSuite {

    /** The tag the default build's failsafe excludes (leaf-server/pom.xml). */
    String TAG = "full-fault-suite";
}
