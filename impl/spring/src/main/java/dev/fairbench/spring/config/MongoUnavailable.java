package dev.fairbench.spring.config;

import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import java.util.Set;

/**
 * Which MongoDB driver errors mean the database did not answer (in time), not that the
 * request or the code is wrong: no server selected in time, no pooled connection in time
 * (both MongoTimeoutException), a socket timeout or a lost connection, a pool the driver
 * cleared after one, and an operation the server cancelled as it shut down (MongoDB's
 * ShutdownInProgress, InterruptedAtShutdown, InterruptedDueToReplStateChange; FerretDB says
 * "context canceled").
 */
public final class MongoUnavailable {
  private static final Set<Integer> SHUTDOWN_CODES = Set.of(91, 11600, 11602);

  private MongoUnavailable() {}

  public static boolean is(MongoException e) {
    if (e instanceof MongoTimeoutException || e instanceof MongoSocketException || e instanceof MongoConnectionPoolClearedException) return true;
    return e instanceof MongoServerException && (SHUTDOWN_CODES.contains(e.getCode()) || String.valueOf(e.getMessage()).contains("context canceled"));
  }
}
