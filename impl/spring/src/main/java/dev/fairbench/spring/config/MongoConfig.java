package dev.fairbench.spring.config;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The MongoDB database (MONGO_URL, mongodb://host:port/db; FerretDB here) of the documents
 * API: one MongoClient with at most DB_POOL_SIZE connections. Every wait is bounded, as in the
 * other implementations: server selection, connecting, a socket read and a pool checkout
 * each give up after 2 s (a 503), and the monitor checks the server every second so a
 * restarted server is found again quickly. With MONGO_URL unset none of this exists (Boot's
 * own Mongo auto-configuration is excluded: it would make a client for localhost).
 */
@Configuration
@ConditionalOnProperty(name = "MONGO_URL")
public class MongoConfig {
  public static final int TIMEOUT_MS = 2000;

  @Bean(destroyMethod = "close")
  MongoClient mongoClient(@Value("${MONGO_URL}") String url, @Value("${DB_POOL_SIZE}") int poolSize) {
    if (poolSize < 1) throw new IllegalArgumentException("DB_POOL_SIZE must be a positive integer");
    ConnectionString connection = new ConnectionString(url);
    if (connection.getDatabase() == null) throw new IllegalArgumentException("MONGO_URL must name a database (mongodb://host:port/db)");
    MongoClientSettings settings = MongoClientSettings.builder()
        .applyConnectionString(connection)
        .applyToConnectionPoolSettings(p -> p.maxSize(poolSize).maxWaitTime(TIMEOUT_MS, TimeUnit.MILLISECONDS))
        .applyToClusterSettings(c -> c.serverSelectionTimeout(TIMEOUT_MS, TimeUnit.MILLISECONDS))
        .applyToSocketSettings(s -> s.connectTimeout(TIMEOUT_MS, TimeUnit.MILLISECONDS).readTimeout(TIMEOUT_MS, TimeUnit.MILLISECONDS))
        .applyToServerSettings(s -> s.heartbeatFrequency(1000, TimeUnit.MILLISECONDS))
        .build();
    return MongoClients.create(settings);
  }

  @Bean
  MongoDatabase mongoDatabase(MongoClient client, @Value("${MONGO_URL}") String url) {
    return client.getDatabase(new ConnectionString(url).getDatabase());
  }
}
