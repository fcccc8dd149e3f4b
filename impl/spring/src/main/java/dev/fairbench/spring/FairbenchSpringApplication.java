package dev.fairbench.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;

/**
 * The fairbench APIs on Spring Boot: each is served when its database's URL is set
 * (POSTGRES_URL → sports, MYSQL_URL → tpcc). The pools are ours (config/), one per
 * database, so Boot's own DataSource (from spring.datasource.*) is never made.
 */
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
public class FairbenchSpringApplication {
  public static void main(String[] args) {
    SpringApplication.run(FairbenchSpringApplication.class, args);
  }
}
