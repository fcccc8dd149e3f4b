package dev.fairbench.spring.tpcc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemException;
import dev.fairbench.spring.web.ProblemHandler;
import java.io.IOException;
import jakarta.validation.Validator;
import java.net.SocketTimeoutException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.dao.DataAccessException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * One POST per TPC-C transaction under /tpcc (other methods: the router's 405). Bodies are
 * application/json (415), at most 16 KiB (413), valid JSON (400 malformed-body) and valid
 * terminal inputs (400 invalid-body: no unknown member, no null, no coercion of strings,
 * no fraction for an integer). The
 * transactions' refusals become problems here, and so does a database that did not answer
 * in time (503): never a 500.
 */
@RestController
@RequestMapping("/tpcc")
@ConditionalOnProperty(name = "MYSQL_URL")
public class TpccController {
  private static final Logger log = LoggerFactory.getLogger(TpccController.class);
  /** The largest valid body, a new order of 15 lines, is under 1 KiB. */
  static final int BODY_LIMIT = 16 * 1024;

  private final TpccService service;
  private final ObjectMapper mapper;
  private final JsonBodies bodies;

  public TpccController(TpccService service, ObjectMapper mapper, Validator validator) {
    this.service = service;
    this.mapper = mapper;
    // Boot's strict mapper, with JSON Schema's integers (8.0 is 8, 8.5 is refused).
    this.bodies = new JsonBodies(mapper.copy().registerModule(WholeNumbers.MODULE), validator);
  }

  /** The body as the terminal input `shape`; an explicit null anywhere is refused too (no input member is nullable). */
  private <T> T body(String type, byte[] body, Class<T> shape) {
    T input = bodies.read(type, body, shape, BODY_LIMIT);
    try {
      if (hasNull(mapper.readTree(body))) throw new ProblemException(Problem.Kind.INVALID_BODY, "no member may be null");
    } catch (IOException e) {
      throw new ProblemException(Problem.Kind.MALFORMED_BODY, "request body is not valid JSON"); // read() parsed it already
    }
    return input;
  }

  private static boolean hasNull(JsonNode node) {
    if (node.isNull()) return true;
    for (JsonNode child : node) {
      if (hasNull(child)) return true;
    }
    return false;
  }

  @PostMapping("/new-order")
  TpccViews.NewOrder newOrder(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    return service.newOrder(body(type, body, TpccBodies.NewOrder.class));
  }

  @PostMapping("/payment")
  TpccViews.Payment payment(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    return service.payment(body(type, body, TpccBodies.Payment.class));
  }

  @PostMapping("/order-status")
  TpccViews.OrderStatus orderStatus(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    return service.orderStatus(body(type, body, TpccBodies.OrderStatus.class));
  }

  @PostMapping("/delivery")
  TpccViews.Delivery delivery(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    return service.delivery(body(type, body, TpccBodies.Delivery.class));
  }

  @PostMapping("/stock-level")
  TpccViews.StockLevel stockLevel(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    return service.stockLevel(body(type, body, TpccBodies.StockLevel.class));
  }

  @ExceptionHandler(TpccTransactions.ItemNotFound.class)
  ResponseEntity<Problem> itemNotFound(TpccTransactions.ItemNotFound e) {
    return ProblemHandler.render(Problem.Kind.ITEM_NOT_FOUND.with(e.getMessage()));
  }

  @ExceptionHandler(TpccTransactions.NotFound.class)
  ResponseEntity<Problem> notFound(TpccTransactions.NotFound e) {
    return ProblemHandler.render(Problem.Kind.NOT_FOUND.with(e.getMessage()));
  }

  @ExceptionHandler(TpccService.Busy.class)
  ResponseEntity<Problem> busy(TpccService.Busy e) {
    return unavailable(e.getMessage());
  }

  /** A database that did not answer (in time) is a 503; any other data-access failure is a fault (500, logged). */
  @ExceptionHandler({DataAccessException.class, TransactionException.class})
  ResponseEntity<Problem> database(RuntimeException e) {
    if (databaseUnavailable(e)) return unavailable("the database did not answer in time; retry later");
    log.error("tpcc: unexpected database error", e);
    return ProblemHandler.render(Problem.Kind.INTERNAL.with(null));
  }

  private static ResponseEntity<Problem> unavailable(String detail) {
    return ResponseEntity.status(503).header(HttpHeaders.RETRY_AFTER, "1").contentType(ProblemHandler.PROBLEM_JSON).body(Problem.Kind.UNAVAILABLE.with(detail));
  }

  /** Whether the failure means the database could not be reached or did not answer within the pool's and the driver's timeouts. */
  static boolean databaseUnavailable(Throwable e) {
    // A failed rollback (the connection was closed by a timeout) replaces the exception that caused it.
    if (e instanceof TransactionSystemException tse && tse.getApplicationException() != null && databaseUnavailable(tse.getApplicationException())) return true;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CannotCreateTransactionException || t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessResourceException
          || t instanceof QueryTimeoutException || t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
          || t instanceof SQLTimeoutException || t instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }
}
