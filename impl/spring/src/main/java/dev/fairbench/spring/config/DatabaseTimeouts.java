package dev.fairbench.spring.config;

import com.zaxxer.hikari.HikariConfig;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * How long the app waits on PostgreSQL before it answers 503 unavailable (make resilience;
 * impl.yaml's resilience.stallBoundMs covers the longest chain of these waits). HikariCP
 * and the PostgreSQL driver wait without end, or for 30 s, by default: a pool checkout gets
 * connectionTimeout (the validation of an idle connection within it, validationTimeout);
 * the driver gets a socket (read) timeout, so a statement on a stalled server ends; the
 * statement's own timeout (spring.jdbc.template.query-timeout) cancels a long one on a
 * healthy server. New connections are opened by HikariCP's own threads, never by a request
 * (which waits at most connectionTimeout for one): their connect and login are bounded
 * too, with more room, so that a slow start on a loaded machine is no failure.
 */
@Component
public class DatabaseTimeouts {
  private static final String CONNECT_SECONDS = "10";
  private final Duration wait;

  public DatabaseTimeouts(@Value("${fairbench.db.timeout}") Duration wait) {
    this.wait = wait;
  }

  /** Sets the pool's and the driver's timeouts (the driver's are whole seconds). */
  public void apply(HikariConfig config) {
    long ms = wait.toMillis();
    String seconds = String.valueOf(Math.max(1, wait.toSeconds()));
    config.setConnectionTimeout(ms);
    config.setValidationTimeout(Math.max(250, ms / 2));
    config.addDataSourceProperty("connectTimeout", CONNECT_SECONDS);
    config.addDataSourceProperty("loginTimeout", CONNECT_SECONDS);
    config.addDataSourceProperty("socketTimeout", seconds);
    // The cancel a query timeout sends goes over a new connection: bounded too.
    config.addDataSourceProperty("cancelSignalTimeout", seconds);
  }
}
