package dev.fairbench.spring.config;

import dev.fairbench.spring.web.Problem;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * The host's error report for what Tomcat refuses before Spring sees it (TomcatConfig): an
 * encoded NUL in the path is a 400 "Invalid URI" from the connector, which the stock valve
 * renders as an HTML page. Here it is the contract's problem+json with Server-Timing. A 400 at
 * this stage is always about the request's path, so it is an invalid parameter.
 */
public class ProblemReportValve extends ErrorReportValve {
  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    // The stock valve's guards: nothing for a success or a body already written, and once only.
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) return;
    Problem.Kind kind = switch (status) {
      case 400 -> Problem.Kind.INVALID_PARAMETER;
      case 404 -> Problem.Kind.NOT_FOUND;
      case 405 -> Problem.Kind.METHOD_NOT_ALLOWED;
      case 413 -> Problem.Kind.PAYLOAD_TOO_LARGE;
      case 415 -> Problem.Kind.UNSUPPORTED_MEDIA_TYPE;
      case 503 -> Problem.Kind.UNAVAILABLE;
      default -> Problem.Kind.INTERNAL;
    };
    String detail = status == 400 ? "the request path is not a valid URI path (e.g. an encoded NUL)" : null;
    String json = "{\"type\":\"" + kind.type + "\",\"title\":\"" + kind.title + "\",\"status\":" + kind.status
        + (detail == null ? "" : ",\"detail\":\"" + detail + "\"") + "}";
    try {
      long started = request.getCoyoteRequest().getStartTimeNanos();
      double ms = started > 0 ? (System.nanoTime() - started) / 1e6 : 0;
      response.setStatus(kind.status);
      response.setContentType("application/problem+json");
      response.setCharacterEncoding("UTF-8");
      response.setHeader("Server-Timing", String.format(Locale.ROOT, "app;dur=%.3f", ms));
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(json);
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      // The client is gone or the response was committed meanwhile: nothing more to say.
    }
  }
}
