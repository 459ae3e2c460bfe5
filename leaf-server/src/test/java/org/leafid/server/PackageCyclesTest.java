package org.leafid.server;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import org.junit.jupiter.api.Test;

/**
 * No package depends on itself through others, in any module: leaf-server's test class path holds the
 * main classes of every module but the benchmarks (core, jdbc, zookeeper, redis, the starter, the
 * client, the server), so one import here checks them all. A cycle is where a package stops showing
 * one job: each such package has to be read, and changed, together with the others of its cycle.
 */
class PackageCyclesTest {

    /** Test classes, of this module and of the test jars of the others, are not the design. */
    private static final ImportOption MAIN_CLASSES_ONLY = (Location location) ->
            !location.contains("/test-classes/") && !location.contains("-tests.jar");

    @Test
    void noPackageCycleInAnyModule() {
        JavaClasses classes = new ClassFileImporter().withImportOption(MAIN_CLASSES_ONLY).importPackages("org.leafid");
        // Every module is there, so an empty or partial import cannot pass for "no cycle".
        assertThat(classes.stream().map(type -> type.getPackageName()).distinct())
                .contains("org.leafid.core", "org.leafid.core.worker", "org.leafid.jdbc", "org.leafid.zookeeper",
                        "org.leafid.redis", "org.leafid.autoconfigure", "org.leafid.client", "org.leafid.server.id");

        slices().matching("org.leafid.(**)").should().beFreeOfCycles().check(classes);
    }
}
