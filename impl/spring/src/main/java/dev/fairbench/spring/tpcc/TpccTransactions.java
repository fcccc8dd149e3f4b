package dev.fairbench.spring.tpcc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * TPC-C's five transactions (clauses 2.4-2.8), each one @Transactional method: one database
 * transaction on one pooled connection, at REPEATABLE READ (the pool's isolation), rolled
 * back by any exception — the 1% new orders with an unused item (ItemNotFound) and the
 * unknown rows (NotFound) included, so a refused request stores nothing. Order-Status and
 * Stock-Level are read-only transactions. Retries live in TpccService, outside the transaction.
 */
@Service
@ConditionalOnProperty(name = "MYSQL_URL")
public class TpccTransactions {
  /** A row the request names does not exist (404 not-found). */
  public static class NotFound extends RuntimeException {
    NotFound(String message) {
      super(message, null, false, false);
    }
  }

  /** TPC-C's rolled-back new order: an unused item id (404 item-not-found). */
  public static class ItemNotFound extends RuntimeException {
    ItemNotFound() {
      super("Item number is not valid", null, false, false);
    }
  }

  private static final int DISTRICTS = 10;
  private static final BigDecimal ONE = BigDecimal.ONE;

  private final TpccRepository db;

  public TpccTransactions(TpccRepository db) {
    this.db = db;
  }

  /** The transaction's one timestamp: 'YYYY-MM-DD HH:MM:SS' in UTC. */
  static String now() {
    return LocalDateTime.now(ZoneOffset.UTC).format(TpccRepository.DATETIME);
  }

  /** Clause 2.5.2.2: of the customers with that last name, ordered by c_first, the one at position ⌈n/2⌉. */
  static <T> T middle(List<T> rows) {
    return rows.get((rows.size() + 1) / 2 - 1);
  }

  /** Clause 2.4.2. */
  @Transactional("mysqlTransactions")
  public TpccViews.NewOrder newOrder(TpccBodies.NewOrder in) {
    String now = now();
    int w = in.w_id(), d = in.d_id(), c = in.c_id();
    BigDecimal wTax = db.warehouseTax(w).orElseThrow(() -> new NotFound("warehouse " + w + " does not exist"));
    TpccRepository.District district = db.districtForUpdate(w, d).orElseThrow(() -> new NotFound("district " + d + " of warehouse " + w + " does not exist"));
    db.takeOrderId(w, d);
    TpccRepository.OrderCustomer customer = db.orderCustomer(w, d, c)
        .orElseThrow(() -> new NotFound("customer " + c + " of warehouse " + w + " district " + d + " does not exist"));
    int o = district.nextOrderId();
    boolean allLocal = in.items().stream().allMatch(line -> line.ol_supply_w_id() == w);
    db.insertOrder(o, d, w, c, now, in.items().size(), allLocal);
    db.insertNewOrder(o, d, w);
    List<TpccViews.NewOrderLine> lines = new ArrayList<>();
    BigDecimal sum = BigDecimal.ZERO;
    int number = 0;
    for (TpccBodies.OrderLine line : in.items()) {
      number++;
      int i = line.ol_i_id(), supplyW = line.ol_supply_w_id(), quantity = line.ol_quantity();
      TpccRepository.Item item = db.item(i).orElseThrow(ItemNotFound::new);
      TpccRepository.Stock stock = db.stockForUpdate(d, i, supplyW).orElseThrow(() -> new NotFound("supplying warehouse " + supplyW + " does not exist"));
      int left = stock.quantity() >= quantity + 10 ? stock.quantity() - quantity : stock.quantity() - quantity + 91;
      db.updateStock(left, quantity, supplyW != w, i, supplyW);
      BigDecimal amount = item.price().multiply(BigDecimal.valueOf(quantity));
      sum = sum.add(amount);
      db.insertOrderLine(o, d, w, number, i, supplyW, quantity, amount, stock.distInfo());
      String brand = item.data().contains("ORIGINAL") && stock.data().contains("ORIGINAL") ? "B" : "G";
      lines.add(new TpccViews.NewOrderLine(supplyW, i, item.name(), quantity, left, brand, item.price(), amount));
    }
    // Σ ol_amount × (1 − c_discount) × (1 + w_tax + d_tax), exact, then to the cent half away from zero.
    BigDecimal total = sum.multiply(ONE.subtract(customer.discount())).multiply(ONE.add(wTax).add(district.tax())).setScale(2, RoundingMode.HALF_UP);
    return new TpccViews.NewOrder(w, d, c, customer.last(), customer.credit(), customer.discount(), wTax, district.tax(), o, in.items().size(), now, total, lines);
  }

  /** Clause 2.5.2; the amount is already rounded to the cent. */
  @Transactional("mysqlTransactions")
  public TpccViews.Payment payment(TpccBodies.Payment in, BigDecimal amount) {
    String now = now();
    int w = in.w_id(), d = in.d_id(), cw = in.c_w_id(), cd = in.c_d_id();
    if (!db.payWarehouse(amount, w)) throw new NotFound("warehouse " + w + " does not exist");
    TpccRepository.NamedAddress warehouse = db.warehouse(w);
    db.payDistrict(amount, w, d);
    TpccRepository.NamedAddress district = db.district(w, d).orElseThrow(() -> new NotFound("district " + d + " of warehouse " + w + " does not exist"));
    TpccRepository.Customer customer;
    if (in.c_id() != null) {
      customer = db.customerForUpdate(cw, cd, in.c_id())
          .orElseThrow(() -> new NotFound("customer " + in.c_id() + " of warehouse " + cw + " district " + cd + " does not exist"));
    } else {
      List<TpccRepository.Customer> named = db.customersByNameForUpdate(cw, cd, in.c_last());
      if (named.isEmpty()) throw new NotFound("no customer of warehouse " + cw + " district " + cd + " is named " + in.c_last());
      customer = middle(named);
    }
    String data = null;
    if ("BC".equals(customer.credit())) {
      String prefixed = customer.id() + " " + cd + " " + cw + " " + d + " " + w + " " + amount.toPlainString() + "|" + customer.data();
      data = prefixed.length() > 500 ? prefixed.substring(0, 500) : prefixed;
      db.payCustomerBadCredit(amount, data, cw, cd, customer.id());
    } else {
      db.payCustomer(amount, cw, cd, customer.id());
    }
    db.insertHistory(customer.id(), cd, cw, d, w, now, amount, warehouse.name() + "    " + district.name());
    TpccViews.PaymentCustomer shown = new TpccViews.PaymentCustomer(customer.id(), customer.first(), customer.middle(), customer.last(), customer.address(),
        customer.phone(), customer.since(), customer.credit(), customer.creditLimit(), customer.discount(), customer.balance().subtract(amount),
        data == null ? null : data.substring(0, Math.min(200, data.length())));
    return new TpccViews.Payment(w, d, cw, cd, amount, now, warehouse.address(), district.address(), shown);
  }

  /** Clause 2.6.2. */
  @Transactional(transactionManager = "mysqlTransactions", readOnly = true)
  public TpccViews.OrderStatus orderStatus(TpccBodies.OrderStatus in) {
    int w = in.w_id(), d = in.d_id();
    TpccRepository.Balance customer;
    if (in.c_id() != null) {
      customer = db.balance(w, d, in.c_id()).orElseThrow(() -> new NotFound("customer " + in.c_id() + " of warehouse " + w + " district " + d + " does not exist"));
    } else {
      List<TpccRepository.Balance> named = db.balancesByName(w, d, in.c_last());
      if (named.isEmpty()) throw new NotFound("no customer of warehouse " + w + " district " + d + " is named " + in.c_last());
      customer = middle(named);
    }
    TpccRepository.LastOrder order = db.lastOrder(w, d, customer.id())
        .orElseThrow(() -> new NotFound("customer " + customer.id() + " of warehouse " + w + " district " + d + " has no order"));
    List<TpccViews.StatusLine> lines = db.orderLines(w, d, order.id());
    return new TpccViews.OrderStatus(w, d, new TpccViews.StatusCustomer(customer.id(), customer.first(), customer.middle(), customer.last(), customer.balance()),
        new TpccViews.StatusOrder(order.id(), order.entryDate(), order.carrierId(), lines));
  }

  /** Clause 2.7.4, executed at once: the oldest undelivered order of each district. */
  @Transactional("mysqlTransactions")
  public TpccViews.Delivery delivery(TpccBodies.Delivery in) {
    String now = now();
    int w = in.w_id(), carrier = in.o_carrier_id();
    if (!db.warehouseExists(w)) throw new NotFound("warehouse " + w + " does not exist");
    List<TpccViews.DeliveredDistrict> districts = new ArrayList<>();
    for (int d = 1; d <= DISTRICTS; d++) {
      Integer o = db.oldestNewOrderForUpdate(w, d).orElse(null);
      if (o != null) {
        db.deleteNewOrder(w, d, o);
        int c = db.orderCustomerForUpdate(w, d, o);
        db.setCarrier(carrier, w, d, o);
        db.deliverLines(now, w, d, o);
        db.creditDelivery(db.linesTotal(w, d, o), w, d, c);
      }
      districts.add(new TpccViews.DeliveredDistrict(d, o));
    }
    return new TpccViews.Delivery(w, carrier, now, districts);
  }

  /** Clause 2.8.2. */
  @Transactional(transactionManager = "mysqlTransactions", readOnly = true)
  public TpccViews.StockLevel stockLevel(TpccBodies.StockLevel in) {
    int w = in.w_id(), d = in.d_id();
    int next = db.nextOrderId(w, d).orElseThrow(() -> new NotFound("warehouse " + w + " does not exist"));
    return new TpccViews.StockLevel(w, d, in.threshold(), db.lowStock(w, d, next, in.threshold()));
  }
}
