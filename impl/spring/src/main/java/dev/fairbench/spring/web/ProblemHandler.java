package dev.fairbench.spring.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/** Every error the app or the framework raises becomes application/problem+json. */
@RestControllerAdvice
public class ProblemHandler {
  private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
  public static final MediaType PROBLEM_JSON = MediaType.parseMediaType("application/problem+json");

  public static ResponseEntity<Problem> render(Problem problem) {
    return ResponseEntity.status(problem.status()).contentType(PROBLEM_JSON).body(problem);
  }

  @ExceptionHandler(ProblemException.class)
  ResponseEntity<Problem> problem(ProblemException e) {
    ResponseEntity<Problem> response = render(e.problem());
    if (e.kind == Problem.Kind.UNAUTHORIZED) {
      return ResponseEntity.status(401).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").contentType(PROBLEM_JSON).body(e.problem());
    }
    return response;
  }

  @ExceptionHandler({NoHandlerFoundException.class, NoResourceFoundException.class})
  ResponseEntity<Problem> notFound(Exception e) {
    return render(Problem.Kind.NOT_FOUND.with("no such resource"));
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<Problem> methodNotAllowed(HttpRequestMethodNotSupportedException e) {
    return ResponseEntity.status(405)
        .header(HttpHeaders.ALLOW, String.join(", ", e.getSupportedMethods() == null ? new String[0] : e.getSupportedMethods()))
        .contentType(PROBLEM_JSON)
        .body(Problem.Kind.METHOD_NOT_ALLOWED.with(e.getMethod() + " is not allowed here"));
  }

  /** The database did not answer (in time): 503, see DatabaseUnavailable. */
  @ExceptionHandler({DataAccessResourceFailureException.class, TransientDataAccessException.class, RecoverableDataAccessException.class})
  ResponseEntity<Problem> unavailable(Exception e) {
    return render(DatabaseUnavailable.problem(e));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<Problem> internal(Exception e) {
    log.error("unexpected error", e);
    return render(Problem.Kind.INTERNAL.with(null));
  }
}
