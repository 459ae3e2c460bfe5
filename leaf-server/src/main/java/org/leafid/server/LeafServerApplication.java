package org.leafid.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Leaf ID server. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class LeafServerApplication {

    /** A class of lib/, looked up by name so that its absence is told before anything needs it. */
    private static final String LIBRARY_CLASS = "org/springframework/boot/SpringApplication.class";

    public static void main(String[] args) {
        if (LeafServerApplication.class.getClassLoader().getResource(LIBRARY_CLASS) == null) {
            // leaf-server.jar holds the server's own classes only; its manifest names the libraries
            // in lib/ beside it. A jar copied without them would otherwise die on a NoClassDefFoundError.
            System.err.println("leaf-server.jar cannot start: the lib/ directory that came with it is not beside it."
                    + " Copy the jar together with its lib/ directory (both are in leaf-server/target/ after a build).");
            System.exit(2);
        }
        SpringApplication.run(LeafServerApplication.class, args);
    }
}
