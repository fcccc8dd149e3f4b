package dev.fairbench.spring.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Server-Timing: app;dur=<ms, 3 decimals> on every response, from the request entering the
 * first filter (before Spring Security) to the response being written. The body is held
 * until then (ContentCachingResponseWrapper), so the header can still be set.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ServerTimingFilter extends OncePerRequestFilter {
  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws ServletException, IOException {
    long started = System.nanoTime();
    ContentCachingResponseWrapper wrapped = new ContentCachingResponseWrapper(response);
    try {
      chain.doFilter(request, wrapped);
    } finally {
      double ms = (System.nanoTime() - started) / 1e6;
      wrapped.setHeader("Server-Timing", String.format(Locale.ROOT, "app;dur=%.3f", ms));
      wrapped.copyBodyToResponse();
    }
  }
}
