package dev.fairbench.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.graphql.servlet.GraphQlWebMvcAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration;

/**
 * The fairbench APIs on Spring Boot: each is served when its database's URL is set
 * (POSTGRES_URL → sports, MYSQL_URL → forum and tpcc, MONGO_URL → documents). The pools and
 * the MongoDB client are ours (config/), one per database, so Boot's own DataSource (from
 * spring.datasource.*) and MongoClient (for localhost) are never made. Spring for GraphQL's
 * engine is Boot's; its HTTP route is ours (forum/GraphQlHttpController says why).
 */
@SpringBootApplication(exclude = {DataSourceAutoConfiguration.class, MongoAutoConfiguration.class, GraphQlWebMvcAutoConfiguration.class})
public class FairbenchSpringApplication {
  /** SIGTERM: Boot's graceful shutdown, then exit 0 (config/ExitZeroOnSigterm). */
  public static void main(String[] args) {
    SpringApplication.run(FairbenchSpringApplication.class, args);
  }
}
