package dev.fairbench.spring.users;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import dev.fairbench.spring.config.MongoUnavailable;
import java.io.IOException;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/** Which driver errors are a 503: timeouts, lost connections, a server shutting down; not a duplicate key or a bad command. */
class MongoUnavailableTest {
  private static MongoCommandException command(int code, String message) {
    return new MongoCommandException(new BsonDocument("ok", new BsonInt32(0)).append("code", new BsonInt32(code)).append("errmsg", new BsonString(message)), new ServerAddress());
  }

  @Test
  void timeoutsLostConnectionsAndShutdownsAreUnavailable() {
    assertThat(MongoUnavailable.is(new MongoTimeoutException("no server"))).isTrue();
    assertThat(MongoUnavailable.is(new MongoSocketReadTimeoutException("read", new ServerAddress(), new IOException()))).isTrue();
    assertThat(MongoUnavailable.is(command(91, "shutdown in progress"))).isTrue();
    assertThat(MongoUnavailable.is(command(1, "context canceled"))).isTrue();
  }

  @Test
  void otherServerErrorsAreFaults() {
    assertThat(MongoUnavailable.is(command(11000, "E11000 duplicate key"))).isFalse();
    assertThat(MongoUnavailable.is(command(2, "bad value"))).isFalse();
  }
}
