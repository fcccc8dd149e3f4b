package dev.fairbench.spring.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The database did not answer (in time): a pool checkout timed out, a socket read timed out,
 * a connection was lost, a statement was cancelled. Spring translates each into one of these
 * DataAccessExceptions; the answer is a 503 unavailable problem, never a 500. Controllers'
 * errors reach ProblemHandler; the caller's lookup in Spring Security's filter chain happens
 * before any controller, so this filter (inside ServerTimingFilter, before the security
 * chain) renders those.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class DatabaseUnavailable extends OncePerRequestFilter {
  private final ObjectMapper mapper;

  public DatabaseUnavailable(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** Whether `e`, or one of its causes, says the database did not answer. */
  public static boolean is(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessException || t instanceof RecoverableDataAccessException) return true;
    }
    return false;
  }

  public static Problem problem(Throwable e) {
    return Problem.Kind.UNAVAILABLE.with("the database did not answer in time (" + e.getClass().getSimpleName() + "); retry later");
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
    try {
      chain.doFilter(request, response);
    } catch (RuntimeException | ServletException e) {
      if (!is(e) || response.isCommitted()) throw e;
      response.resetBuffer();
      response.setStatus(503);
      response.setContentType(ProblemHandler.PROBLEM_JSON.toString());
      mapper.writeValue(response.getOutputStream(), problem(e));
    }
  }
}
