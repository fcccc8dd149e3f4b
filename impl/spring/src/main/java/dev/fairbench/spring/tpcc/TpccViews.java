package dev.fairbench.spring.tpcc;

import java.math.BigDecimal;
import java.util.List;

/**
 * The terminals' output screens (spec/openapi.yaml: TpccNewOrderOutput, TpccPaymentOutput,
 * TpccOrderStatusOutput, TpccDeliveryOutput, TpccStockLevelOutput), with the spec's column
 * names. Money and rates are BigDecimal, exact as read from the DECIMAL columns; timestamps
 * are 'YYYY-MM-DD HH:MM:SS' strings in UTC.
 */
public final class TpccViews {
  private TpccViews() {}

  public record NewOrderLine(int ol_supply_w_id, int ol_i_id, String i_name, int ol_quantity, int s_quantity, String brand_generic, BigDecimal i_price, BigDecimal ol_amount) {}

  public record NewOrder(int w_id, int d_id, int c_id, String c_last, String c_credit, BigDecimal c_discount, BigDecimal w_tax, BigDecimal d_tax,
      int o_id, int o_ol_cnt, String o_entry_d, BigDecimal total_amount, List<NewOrderLine> lines) {}

  public record Address(String street_1, String street_2, String city, String state, String zip) {}

  public record PaymentCustomer(int c_id, String c_first, String c_middle, String c_last, Address address, String c_phone, String c_since,
      String c_credit, BigDecimal c_credit_lim, BigDecimal c_discount, BigDecimal c_balance, String c_data) {}

  public record Payment(int w_id, int d_id, int c_w_id, int c_d_id, BigDecimal h_amount, String h_date, Address warehouse, Address district, PaymentCustomer customer) {}

  public record StatusCustomer(int c_id, String c_first, String c_middle, String c_last, BigDecimal c_balance) {}

  public record StatusLine(int ol_supply_w_id, int ol_i_id, int ol_quantity, BigDecimal ol_amount, String ol_delivery_d) {}

  public record StatusOrder(int o_id, String o_entry_d, Integer o_carrier_id, List<StatusLine> lines) {}

  public record OrderStatus(int w_id, int d_id, StatusCustomer customer, StatusOrder order) {}

  public record DeliveredDistrict(int d_id, Integer o_id) {}

  public record Delivery(int w_id, int o_carrier_id, String ol_delivery_d, List<DeliveredDistrict> districts) {}

  public record StockLevel(int w_id, int d_id, int threshold, int low_stock) {}
}
