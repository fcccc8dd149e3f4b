package dev.fairbench.spring.tpcc;

import com.fasterxml.jackson.annotation.JsonIgnore;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;

/**
 * The terminals' inputs (spec/openapi.yaml: TpccNewOrderInput, TpccPaymentInput,
 * TpccOrderStatusInput, TpccDeliveryInput, TpccStockLevelInput) with TPC-C's ranges.
 * Components carry the spec's column names, so JSON and Java name them alike. Jackson's
 * strict settings refuse unknown members, strings for numbers and fractions for integers;
 * the tpcc reader (TpccController) refuses explicit nulls too.
 */
public final class TpccBodies {
  private TpccBodies() {}

  static final long INT_MAX = 2147483647L;
  /** Upper-case letters only (TPC-C's syllables): nothing else can reach a statement. */
  static final String LAST_NAME = "[A-Z]{1,16}";

  public record OrderLine(
      @NotNull @Min(1) @Max(INT_MAX) Integer ol_i_id,
      @NotNull @Min(1) @Max(INT_MAX) Integer ol_supply_w_id,
      @NotNull @Min(1) @Max(10) Integer ol_quantity) {}

  public record NewOrder(
      @NotNull @Min(1) @Max(INT_MAX) Integer w_id,
      @NotNull @Min(1) @Max(10) Integer d_id,
      @NotNull @Min(1) @Max(3000) Integer c_id,
      @NotNull @Size(min = 5, max = 15) List<@NotNull @Valid OrderLine> items) {}

  public record Payment(
      @NotNull @Min(1) @Max(INT_MAX) Integer w_id,
      @NotNull @Min(1) @Max(10) Integer d_id,
      @NotNull @Min(1) @Max(INT_MAX) Integer c_w_id,
      @NotNull @Min(1) @Max(10) Integer c_d_id,
      @Min(1) @Max(3000) Integer c_id,
      @Pattern(regexp = LAST_NAME) String c_last,
      @NotNull @DecimalMin("1") @DecimalMax("5000") BigDecimal h_amount) {
    /** Exactly one of c_id and c_last names the customer. */
    @JsonIgnore
    @AssertTrue(message = "exactly one of c_id and c_last is required")
    public boolean isOneCustomer() {
      return (c_id == null) != (c_last == null);
    }
  }

  public record OrderStatus(
      @NotNull @Min(1) @Max(INT_MAX) Integer w_id,
      @NotNull @Min(1) @Max(10) Integer d_id,
      @Min(1) @Max(3000) Integer c_id,
      @Pattern(regexp = LAST_NAME) String c_last) {
    @JsonIgnore
    @AssertTrue(message = "exactly one of c_id and c_last is required")
    public boolean isOneCustomer() {
      return (c_id == null) != (c_last == null);
    }
  }

  public record Delivery(
      @NotNull @Min(1) @Max(INT_MAX) Integer w_id,
      @NotNull @Min(1) @Max(10) Integer o_carrier_id) {}

  public record StockLevel(
      @NotNull @Min(1) @Max(INT_MAX) Integer w_id,
      @NotNull @Min(1) @Max(10) Integer d_id,
      @NotNull @Min(10) @Max(20) Integer threshold) {}
}
