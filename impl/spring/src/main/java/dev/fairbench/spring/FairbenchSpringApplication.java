package dev.fairbench.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The fairbench APIs on Spring Boot: each is served when its database's URL is set
 * (POSTGRES_URL → sports, MYSQL_URL → tpcc, MONGO_URL → documents). The pools and the
 * MongoDB client are ours (config/), one per database, so Boot's own DataSource (from
 * spring.datasource.*) and MongoClient (for localhost) are never made.
 */
@SpringBootApplication(exclude = {DataSourceAutoConfiguration.class, MongoAutoConfiguration.class})
public class FairbenchSpringApplication {
  /**
   * SIGTERM closes the context (Boot's graceful shutdown: requests in flight finish, the pools
   * close) and then the process exits 0, as the harness's contract asks; the JVM's own status
   * after a signal would be 143. Boot's shutdown hook is replaced by this one
   * (application.properties: spring.main.register-shutdown-hook=false).
   */
  public static void main(String[] args) {
    ConfigurableApplicationContext context = SpringApplication.run(FairbenchSpringApplication.class, args);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      context.close();
      Runtime.getRuntime().halt(0);
    }, "fairbench-shutdown"));
  }
}
