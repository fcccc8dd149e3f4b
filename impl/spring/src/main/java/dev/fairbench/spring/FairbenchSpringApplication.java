package dev.fairbench.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The sports-facility API (spec/openapi.yaml, tag sports) on Spring Boot. */
@SpringBootApplication
public class FairbenchSpringApplication {
  public static void main(String[] args) {
    SpringApplication.run(FairbenchSpringApplication.class, args);
  }
}
