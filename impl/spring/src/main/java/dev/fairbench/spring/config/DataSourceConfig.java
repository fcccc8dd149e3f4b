package dev.fairbench.spring.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * HikariCP on the contract's POSTGRES_URL (postgres://user:pass@host:port/db, which JDBC does
 * not read as is) with exactly DB_POOL_SIZE connections, opened at start-up.
 */
@Configuration
@ConditionalOnProperty(name = "POSTGRES_URL") // the sports API is served when its database is given
public class DataSourceConfig {
  @Bean
  DataSource dataSource(@Value("${POSTGRES_URL}") String url, @Value("${DB_POOL_SIZE}") int poolSize, DatabaseTimeouts timeouts) {
    if (poolSize < 1) throw new IllegalArgumentException("DB_POOL_SIZE must be a positive integer");
    URI uri = URI.create(url);
    if (!"postgres".equals(uri.getScheme()) && !"postgresql".equals(uri.getScheme())) {
      throw new IllegalArgumentException("POSTGRES_URL must use the postgres: scheme");
    }
    HikariConfig config = new HikariConfig();
    int port = uri.getPort() == -1 ? 5432 : uri.getPort();
    config.setJdbcUrl("jdbc:postgresql://" + uri.getHost() + ":" + port + uri.getRawPath());
    String userInfo = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo();
    int colon = userInfo.indexOf(':');
    config.setUsername(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
    if (colon >= 0) config.setPassword(decode(userInfo.substring(colon + 1)));
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize); // a fixed-size pool, as HikariCP recommends
    config.setPoolName("sports");
    timeouts.apply(config); // bounded waits: make resilience (DatabaseTimeouts)
    return new HikariDataSource(config);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
