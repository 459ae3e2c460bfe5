package org.leafid.autoconfigure.example;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class OrderApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderApplication.class, args);
    }

    /** Takes one ID of each kind once the application has started, and prints them. */
    @Bean
    ApplicationRunner printFirstIds(OrderIds ids) {
        return args -> System.out.printf("order number %d, event id %d%n", ids.nextOrderNumber(), ids.nextEventId());
    }
}
