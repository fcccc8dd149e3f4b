package dev.fairbench.spring.tpcc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * TPC-C's statements (clauses 2.4-2.8) through JdbcClient on the MySQL pool. Every call runs
 * on the connection of the caller's transaction (TpccTransactions); rows that are written
 * are first read FOR UPDATE. Parameters are always bound, never spliced, except the stock
 * row's s_dist_NN column, chosen from the validated d_id (1..10).
 */
@Repository
@ConditionalOnProperty(name = "MYSQL_URL")
public class TpccRepository {
  static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  record District(BigDecimal tax, int nextOrderId) {}
  record OrderCustomer(BigDecimal discount, String last, String credit) {}
  record Item(BigDecimal price, String name, String data) {}
  record Stock(int quantity, String data, String distInfo) {}
  record Customer(int id, String first, String middle, String last, TpccViews.Address address, String phone, String since,
      String credit, BigDecimal creditLimit, BigDecimal discount, BigDecimal balance, String data) {}
  record NamedAddress(String name, TpccViews.Address address) {}
  record Balance(int id, String first, String middle, String last, BigDecimal balance) {}
  record LastOrder(int id, String entryDate, Integer carrierId) {}

  private static final String CUSTOMER = "c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, "
      + "c_credit, c_credit_lim, c_discount, c_balance, c_data FROM customer WHERE c_w_id = ? AND c_d_id = ?";
  /** One statement per district: the column s_dist_<d_id> is part of the text. */
  private static final String[] STOCK_FOR_UPDATE = new String[11];

  static {
    for (int d = 1; d <= 10; d++) {
      STOCK_FOR_UPDATE[d] = "SELECT s_quantity, s_data, s_dist_%02d AS dist_info FROM stock WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE".formatted(d);
    }
  }

  private static TpccViews.Address address(ResultSet rs, String prefix) throws SQLException {
    return new TpccViews.Address(rs.getString(prefix + "_street_1"), rs.getString(prefix + "_street_2"), rs.getString(prefix + "_city"),
        rs.getString(prefix + "_state"), rs.getString(prefix + "_zip"));
  }

  /** A DATETIME as 'YYYY-MM-DD HH:MM:SS' (stored in UTC, read without a time-zone shift), or null. */
  static String datetime(ResultSet rs, String column) throws SQLException {
    LocalDateTime value = rs.getObject(column, LocalDateTime.class);
    return value == null ? null : value.format(DATETIME);
  }

  private static Integer nullableInt(ResultSet rs, String column) throws SQLException {
    int value = rs.getInt(column);
    return rs.wasNull() ? null : value;
  }

  private static final RowMapper<Customer> CUSTOMER_ROW = (rs, i) -> new Customer(rs.getInt("c_id"), rs.getString("c_first"), rs.getString("c_middle"),
      rs.getString("c_last"), address(rs, "c"), rs.getString("c_phone"), datetime(rs, "c_since"), rs.getString("c_credit"),
      rs.getBigDecimal("c_credit_lim"), rs.getBigDecimal("c_discount"), rs.getBigDecimal("c_balance"), rs.getString("c_data"));
  private static final RowMapper<Balance> BALANCE_ROW = (rs, i) ->
      new Balance(rs.getInt("c_id"), rs.getString("c_first"), rs.getString("c_middle"), rs.getString("c_last"), rs.getBigDecimal("c_balance"));

  private final JdbcClient db;

  public TpccRepository(@Qualifier("mysql") JdbcClient db) {
    this.db = db;
  }

  // --- New-Order ---------------------------------------------------------------------------

  Optional<BigDecimal> warehouseTax(int w) {
    return db.sql("SELECT w_tax FROM warehouse WHERE w_id = ?").param(w).query(BigDecimal.class).optional();
  }

  Optional<District> districtForUpdate(int w, int d) {
    return db.sql("SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE").params(w, d)
        .query((rs, i) -> new District(rs.getBigDecimal("d_tax"), rs.getInt("d_next_o_id"))).optional();
  }

  void takeOrderId(int w, int d) {
    db.sql("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?").params(w, d).update();
  }

  Optional<OrderCustomer> orderCustomer(int w, int d, int c) {
    return db.sql("SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?").params(w, d, c)
        .query((rs, i) -> new OrderCustomer(rs.getBigDecimal("c_discount"), rs.getString("c_last"), rs.getString("c_credit"))).optional();
  }

  void insertOrder(int o, int d, int w, int c, String entryDate, int lineCount, boolean allLocal) {
    db.sql("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)")
        .params(o, d, w, c, entryDate, lineCount, allLocal ? 1 : 0).update();
  }

  void insertNewOrder(int o, int d, int w) {
    db.sql("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)").params(o, d, w).update();
  }

  Optional<Item> item(int i) {
    return db.sql("SELECT i_price, i_name, i_data FROM item WHERE i_id = ?").param(i)
        .query((rs, n) -> new Item(rs.getBigDecimal("i_price"), rs.getString("i_name"), rs.getString("i_data"))).optional();
  }

  Optional<Stock> stockForUpdate(int d, int i, int supplyW) {
    return db.sql(STOCK_FOR_UPDATE[d]).params(i, supplyW)
        .query((rs, n) -> new Stock(rs.getInt("s_quantity"), rs.getString("s_data"), rs.getString("dist_info"))).optional();
  }

  void updateStock(int quantity, int ordered, boolean remote, int i, int supplyW) {
    db.sql("UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?")
        .params(quantity, ordered, remote ? 1 : 0, i, supplyW).update();
  }

  void insertOrderLine(int o, int d, int w, int number, int i, int supplyW, int quantity, BigDecimal amount, String distInfo) {
    db.sql("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
        + "VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)").params(o, d, w, number, i, supplyW, quantity, amount, distInfo).update();
  }

  // --- Payment -----------------------------------------------------------------------------

  /** Adds the amount to W_YTD; false when there is no such warehouse. */
  boolean payWarehouse(BigDecimal amount, int w) {
    return db.sql("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?").params(amount, w).update() > 0;
  }

  NamedAddress warehouse(int w) {
    return db.sql("SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?").param(w)
        .query((rs, i) -> new NamedAddress(rs.getString("w_name"), address(rs, "w"))).single();
  }

  void payDistrict(BigDecimal amount, int w, int d) {
    db.sql("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?").params(amount, w, d).update();
  }

  Optional<NamedAddress> district(int w, int d) {
    return db.sql("SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?").params(w, d)
        .query((rs, i) -> new NamedAddress(rs.getString("d_name"), address(rs, "d"))).optional();
  }

  Optional<Customer> customerForUpdate(int w, int d, int c) {
    return db.sql("SELECT " + CUSTOMER + " AND c_id = ? FOR UPDATE").params(w, d, c).query(CUSTOMER_ROW).optional();
  }

  List<Customer> customersByNameForUpdate(int w, int d, String last) {
    return db.sql("SELECT " + CUSTOMER + " AND c_last = ? ORDER BY c_first, c_id FOR UPDATE").params(w, d, last).query(CUSTOMER_ROW).list();
  }

  void payCustomer(BigDecimal amount, int w, int d, int c) {
    db.sql("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 "
        + "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?").params(amount, amount, w, d, c).update();
  }

  void payCustomerBadCredit(BigDecimal amount, String data, int w, int d, int c) {
    db.sql("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? "
        + "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?").params(amount, amount, data, w, d, c).update();
  }

  void insertHistory(int c, int cd, int cw, int d, int w, String date, BigDecimal amount, String data) {
    db.sql("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .params(c, cd, cw, d, w, date, amount, data).update();
  }

  // --- Order-Status ------------------------------------------------------------------------

  Optional<Balance> balance(int w, int d, int c) {
    return db.sql("SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?").params(w, d, c)
        .query(BALANCE_ROW).optional();
  }

  List<Balance> balancesByName(int w, int d, String last) {
    return db.sql("SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id")
        .params(w, d, last).query(BALANCE_ROW).list();
  }

  Optional<LastOrder> lastOrder(int w, int d, int c) {
    return db.sql("SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1")
        .params(w, d, c).query((rs, i) -> new LastOrder(rs.getInt("o_id"), datetime(rs, "o_entry_d"), nullableInt(rs, "o_carrier_id"))).optional();
  }

  List<TpccViews.StatusLine> orderLines(int w, int d, int o) {
    return db.sql("SELECT ol_supply_w_id, ol_i_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? ORDER BY ol_number")
        .params(w, d, o).query((rs, i) -> new TpccViews.StatusLine(rs.getInt("ol_supply_w_id"), rs.getInt("ol_i_id"), rs.getInt("ol_quantity"),
            rs.getBigDecimal("ol_amount"), datetime(rs, "ol_delivery_d"))).list();
  }

  // --- Delivery ----------------------------------------------------------------------------

  boolean warehouseExists(int w) {
    return db.sql("SELECT 1 FROM warehouse WHERE w_id = ?").param(w).query(Integer.class).optional().isPresent();
  }

  Optional<Integer> oldestNewOrderForUpdate(int w, int d) {
    return db.sql("SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE").params(w, d)
        .query(Integer.class).optional();
  }

  void deleteNewOrder(int w, int d, int o) {
    db.sql("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?").params(w, d, o).update();
  }

  int orderCustomerForUpdate(int w, int d, int o) {
    return db.sql("SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? FOR UPDATE").params(w, d, o).query(Integer.class).single();
  }

  void setCarrier(int carrier, int w, int d, int o) {
    db.sql("UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?").params(carrier, w, d, o).update();
  }

  void deliverLines(String date, int w, int d, int o) {
    db.sql("UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?").params(date, w, d, o).update();
  }

  BigDecimal linesTotal(int w, int d, int o) {
    return db.sql("SELECT COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?").params(w, d, o)
        .query(BigDecimal.class).single();
  }

  void creditDelivery(BigDecimal amount, int w, int d, int c) {
    db.sql("UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")
        .params(amount, w, d, c).update();
  }

  // --- Stock-Level -------------------------------------------------------------------------

  Optional<Integer> nextOrderId(int w, int d) {
    return db.sql("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?").params(w, d).query(Integer.class).optional();
  }

  int lowStock(int w, int d, int nextOrderId, int threshold) {
    return db.sql("SELECT COUNT(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ? AND s.s_i_id = ol.ol_i_id "
        + "WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?")
        .params(w, w, d, nextOrderId - 20, nextOrderId, threshold).query(Integer.class).single();
  }
}
