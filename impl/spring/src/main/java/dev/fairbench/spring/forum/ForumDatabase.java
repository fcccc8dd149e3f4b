package dev.fairbench.spring.forum;

import dev.fairbench.spring.web.DatabaseUnavailable;
import java.net.SocketTimeoutException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

/** Whether a data-access failure means MySQL could not be reached or did not answer within the pool's and the driver's timeouts. */
final class ForumDatabase {
  private ForumDatabase() {}

  static boolean unavailable(Throwable e) {
    if (DatabaseUnavailable.is(e)) return true;
    // MariaDB Connector/J's error codes can translate a lost or timed-out connection into an
    // uncategorised exception: its cause says what happened.
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException || t instanceof SQLTimeoutException
          || t instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }
}
