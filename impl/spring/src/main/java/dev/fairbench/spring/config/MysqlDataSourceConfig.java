package dev.fairbench.spring.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;

/**
 * The MySQL database (MYSQL_URL, mysql://user:pass@host:port/db) of the tpcc API: its own
 * HikariCP pool of exactly DB_POOL_SIZE connections, JdbcClient and transaction manager, all
 * qualified "mysql". They are not default candidates (Spring Boot's "configure two
 * DataSources" recipe), so the PostgreSQL pool stays the one Boot's auto-configuration and
 * the sports API use when both URLs are set; with MYSQL_URL unset none of this exists.
 * Boot enables @Transactional only when it sees a default transaction manager, so it is
 * enabled here.
 */
@Configuration
@EnableTransactionManagement
@ConditionalOnProperty(name = "MYSQL_URL")
public class MysqlDataSourceConfig {
  /** Every wait on the database is bounded (make resilience): a stalled server is a 503, not a hung request. */
  public static final int TIMEOUT_MS = 2000;
  /**
   * A statement's reply may take longer: the socket timeout also cuts lock waits, and 50 new
   * orders on one district queue on its row (conformance's fifty-at-once). At 2 s, on this
   * 2-core machine under load, waiters were cut and the run ended in 500s and duplicate order
   * ids (MySQL error 1062), so the bound is 5 s.
   */
  public static final int SOCKET_TIMEOUT_MS = 5000;

  @Bean(defaultCandidate = false)
  @Qualifier("mysql")
  HikariDataSource mysqlDataSource(@Value("${MYSQL_URL}") String url, @Value("${DB_POOL_SIZE}") int poolSize) {
    if (poolSize < 1) throw new IllegalArgumentException("DB_POOL_SIZE must be a positive integer");
    URI uri = URI.create(url);
    if (!"mysql".equals(uri.getScheme())) throw new IllegalArgumentException("MYSQL_URL must use the mysql: scheme");
    HikariConfig config = new HikariConfig();
    int port = uri.getPort() == -1 ? 3306 : uri.getPort();
    // MariaDB Connector/J (MariaDB runs here; it speaks MySQL's protocol to either server).
    // Server-side prepared statements, as mysql2's execute() in the other implementations;
    // connect and socket timeouts bound a stalled server (a timed-out socket closes the
    // connection, so the server rolls its transaction back).
    config.setJdbcUrl("jdbc:mariadb://" + uri.getHost() + ":" + port + uri.getRawPath()
        + "?useServerPrepStmts=true&connectTimeout=" + TIMEOUT_MS + "&socketTimeout=" + SOCKET_TIMEOUT_MS);
    String userInfo = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo();
    int colon = userInfo.indexOf(':');
    config.setUsername(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
    if (colon >= 0) config.setPassword(decode(userInfo.substring(colon + 1)));
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize); // a fixed-size pool, as HikariCP recommends
    config.setConnectionTimeout(TIMEOUT_MS); // waiting for a pooled connection
    config.setValidationTimeout(TIMEOUT_MS / 2); // below connectionTimeout, as HikariCP requires
    // TPC-C's transactions run at REPEATABLE READ (InnoDB's default, made explicit on every connection).
    config.setTransactionIsolation("TRANSACTION_REPEATABLE_READ");
    config.setPoolName("mysql");
    return new HikariDataSource(config);
  }

  @Bean(defaultCandidate = false)
  @Qualifier("mysql")
  JdbcClient mysqlJdbcClient(@Qualifier("mysql") DataSource dataSource) {
    return JdbcClient.create(dataSource);
  }

  /** The transactions of @Transactional("mysqlTransactions"); read-only ones run as READ ONLY transactions. */
  @Bean(defaultCandidate = false)
  @Qualifier("mysql")
  JdbcTransactionManager mysqlTransactions(@Qualifier("mysql") DataSource dataSource) {
    JdbcTransactionManager manager = new JdbcTransactionManager(dataSource);
    manager.setEnforceReadOnly(true); // SET TRANSACTION READ ONLY: one consistent snapshot without locks
    return manager;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
