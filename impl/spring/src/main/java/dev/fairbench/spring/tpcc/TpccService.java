package dev.fairbench.spring.tpcc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Service;

/**
 * Runs each transaction again when MySQL chose it as a deadlock victim or its lock wait timed
 * out (errors 1213 and 1205), the whole transaction each time, ATTEMPTS times in all; then
 * Busy (a 503 unavailable). The retry is outside the @Transactional methods, so every attempt
 * is a fresh transaction whose predecessor was rolled back.
 */
@Service
@ConditionalOnProperty(name = "MYSQL_URL")
public class TpccService {
  static final int ATTEMPTS = 3;
  private static final int DEADLOCK = 1213;
  private static final int LOCK_WAIT_TIMEOUT = 1205;

  /** A deadlock or lock wait on every attempt. */
  public static class Busy extends RuntimeException {
    Busy(String message) {
      super(message, null, false, false);
    }
  }

  private final TpccTransactions transactions;

  public TpccService(TpccTransactions transactions) {
    this.transactions = transactions;
  }

  public TpccViews.NewOrder newOrder(TpccBodies.NewOrder in) {
    return retried(() -> transactions.newOrder(in));
  }

  /** h_amount is rounded to the cent, half away from zero, before use (spec: TpccPaymentInput). */
  public TpccViews.Payment payment(TpccBodies.Payment in) {
    BigDecimal amount = in.h_amount().setScale(2, RoundingMode.HALF_UP);
    return retried(() -> transactions.payment(in, amount));
  }

  public TpccViews.OrderStatus orderStatus(TpccBodies.OrderStatus in) {
    return retried(() -> transactions.orderStatus(in));
  }

  public TpccViews.Delivery delivery(TpccBodies.Delivery in) {
    return retried(() -> transactions.delivery(in));
  }

  public TpccViews.StockLevel stockLevel(TpccBodies.StockLevel in) {
    return retried(() -> transactions.stockLevel(in));
  }

  static <T> T retried(Supplier<T> transaction) {
    for (int attempt = 1; ; attempt++) {
      try {
        return transaction.get();
      } catch (RuntimeException e) {
        int code = lockConflict(e);
        if (code == 0) throw e;
        if (attempt >= ATTEMPTS) {
          throw new Busy("the transaction met a " + (code == DEADLOCK ? "deadlock" : "lock wait timeout") + " " + ATTEMPTS + " times");
        }
      }
    }
  }

  /** 1213 or 1205 when the failure is a deadlock or a lock-wait timeout, else 0. */
  static int lockConflict(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && (sql.getErrorCode() == DEADLOCK || sql.getErrorCode() == LOCK_WAIT_TIMEOUT)) return sql.getErrorCode();
      if (t.getCause() == t) break;
    }
    return e instanceof PessimisticLockingFailureException ? DEADLOCK : 0;
  }
}
