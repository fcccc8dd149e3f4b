package dev.fairbench.spring.tpcc;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.fairbench.spring.config.JsonConfig;
import dev.fairbench.spring.security.SecurityConfig;
import dev.fairbench.spring.web.ProblemHandler;
import dev.fairbench.spring.web.ServerTimingFilter;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.CannotCreateTransactionException;

/** The tpcc web layer over mocked transactions: strict bodies, problems, retries, Server-Timing; no token needed. */
@WebMvcTest(TpccController.class)
@Import({SecurityConfig.class, JsonConfig.class, TpccService.class, ProblemHandler.class, ServerTimingFilter.class})
@TestPropertySource(properties = {"JWT_SECRET=unit-test-secret-of-at-least-32-bytes!", "PORT=0", "MYSQL_URL=mysql://unused/tpcc"})
class TpccControllerTest {
  private static final String LINES = "[" + String.join(",", List.of(1, 2, 3, 4, 5).stream()
      .map(i -> "{\"ol_i_id\":" + i + ",\"ol_supply_w_id\":1,\"ol_quantity\":1}").toList()) + "]";
  private static final String NEW_ORDER = "{\"w_id\":1,\"d_id\":1,\"c_id\":1,\"items\":" + LINES + "}";
  private static final TpccViews.StockLevel LOW = new TpccViews.StockLevel(1, 2, 15, 3);

  @Autowired MockMvc mvc;
  @MockitoBean TpccTransactions transactions;

  private org.springframework.test.web.servlet.ResultActions postJson(String path, String body) throws Exception {
    return mvc.perform(post(path).contentType(MediaType.APPLICATION_JSON).content(body));
  }

  private static CannotAcquireLockException deadlock() {
    return new CannotAcquireLockException("deadlock", new SQLException("Deadlock found when trying to get lock", "40001", 1213));
  }

  @Test
  void aStockLevelIsAnsweredWithoutATokenAndWithServerTiming() throws Exception {
    given(transactions.stockLevel(any())).willReturn(LOW);
    postJson("/tpcc/stock-level", "{\"w_id\":1,\"d_id\":2,\"threshold\":15}")
        .andExpect(status().isOk())
        .andExpect(header().string("Server-Timing", org.hamcrest.Matchers.matchesPattern("app;dur=[0-9]+\\.[0-9]{3}")))
        .andExpect(jsonPath("$.low_stock").value(3));
  }

  @Test
  void badBodiesAre400sAndNeverReachTheDatabase() throws Exception {
    for (String body : List.of(
        "{\"w_id\":1,\"d_id\":1,\"c_id\":null,\"c_last\":\"BARBAR\"}", // an explicit null
        "{\"w_id\":1,\"d_id\":1,\"c_id\":1,\"c_last\":\"BARBAR\"}", // both customer keys
        "{\"w_id\":1,\"d_id\":1}", // neither
        "{\"w_id\":\"1\",\"d_id\":1,\"c_id\":1}", // a string for a number
        "{\"w_id\":1.5,\"d_id\":1,\"c_id\":1}", // a fraction for an integer
        "{\"w_id\":1,\"d_id\":11,\"c_id\":1}", // out of range
        "{\"w_id\":1,\"d_id\":1,\"c_last\":\"1 OR 1=1\"}", // not a last name
        "{\"w_id\":1,\"d_id\":1,\"c_id\":1,\"o_id\":5}", // an unknown member
        "[]")) {
      postJson("/tpcc/order-status", body).andExpect(status().isBadRequest()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    }
    postJson("/tpcc/order-status", "{\"w_id\":1,").andExpect(jsonPath("$.type").value("urn:fairbench:problem:malformed-body"));
    mvc.perform(post("/tpcc/order-status").contentType(MediaType.TEXT_PLAIN).content("{}")).andExpect(status().isUnsupportedMediaType());
    postJson("/tpcc/new-order", "{\"pad\":\"" + "x".repeat(17 * 1024) + "\"}").andExpect(status().isPayloadTooLarge());
    postJson("/tpcc/new-order", "{\"w_id\":1,\"d_id\":1,\"c_id\":1,\"items\":[" + LINES.substring(1, LINES.indexOf('}') + 1) + "]}")
        .andExpect(status().isBadRequest()); // one line: 5..15 are required
    verifyNoInteractions(transactions);
  }

  @Test
  void integersWrittenWithAZeroFractionAreIntegers() throws Exception {
    given(transactions.stockLevel(any())).willReturn(LOW);
    postJson("/tpcc/stock-level", "{\"w_id\":1.0,\"d_id\":2,\"threshold\":15.00}").andExpect(status().isOk());
    verify(transactions).stockLevel(new TpccBodies.StockLevel(1, 2, 15));
  }

  @Test
  void otherMethodsAre405WithAllow() throws Exception {
    mvc.perform(get("/tpcc/new-order")).andExpect(status().isMethodNotAllowed()).andExpect(header().string("Allow", "POST"))
        .andExpect(content().contentType("application/problem+json"));
  }

  @Test
  void theRolledBackNewOrderIsA404ItemNotFound() throws Exception {
    given(transactions.newOrder(any())).willThrow(new TpccTransactions.ItemNotFound());
    postJson("/tpcc/new-order", NEW_ORDER).andExpect(status().isNotFound())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:item-not-found"))
        .andExpect(jsonPath("$.detail").value("Item number is not valid"));
  }

  @Test
  void aDeadlockIsRetriedAndTheThirdAttemptCanSucceed() throws Exception {
    given(transactions.stockLevel(any())).willThrow(deadlock(), deadlock()).willReturn(LOW);
    postJson("/tpcc/stock-level", "{\"w_id\":1,\"d_id\":2,\"threshold\":15}").andExpect(status().isOk());
    verify(transactions, times(3)).stockLevel(any());
  }

  @Test
  void threeDeadlocksAreA503WithRetryAfter() throws Exception {
    given(transactions.delivery(any())).willThrow(deadlock(), deadlock(), deadlock(), deadlock());
    postJson("/tpcc/delivery", "{\"w_id\":1,\"o_carrier_id\":3}").andExpect(status().isServiceUnavailable())
        .andExpect(header().string("Retry-After", "1"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:unavailable"));
    verify(transactions, times(TpccService.ATTEMPTS)).delivery(any());
  }

  @Test
  void noConnectionInTimeIsA503NotA500() throws Exception {
    given(transactions.delivery(any())).willThrow(new CannotCreateTransactionException("no connection", new java.sql.SQLTransientConnectionException("timeout")));
    postJson("/tpcc/delivery", "{\"w_id\":1,\"o_carrier_id\":3}").andExpect(status().isServiceUnavailable());
    verify(transactions, times(1)).delivery(any()); // not a lock conflict: not retried
  }

  @Test
  void thePaymentAmountIsRoundedToTheCentHalfAwayFromZero() throws Exception {
    given(transactions.payment(any(), any())).willThrow(new TpccTransactions.NotFound("no such customer"));
    postJson("/tpcc/payment", "{\"w_id\":1,\"d_id\":1,\"c_w_id\":1,\"c_d_id\":1,\"c_last\":\"BAR\",\"h_amount\":10.005}")
        .andExpect(status().isNotFound()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:not-found"));
    verify(transactions).payment(any(), eq(new BigDecimal("10.01")));
  }
}
