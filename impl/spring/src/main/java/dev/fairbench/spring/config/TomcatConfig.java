package dev.fairbench.spring.config;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Tomcat settings the contract needs.
 *
 * <p>TRACE is answered like every method no route serves: the router's 405 problem with its
 * Allow header. Tomcat would refuse it itself (Boot's error page as the body), and
 * FrameworkServlet would echo the request after the router's answer; so Tomcat lets it
 * through and the dispatcher routes it without the echo.
 *
 * <p>Paths: an encoded slash (%2F) inside a segment is passed through encoded (Tomcat's
 * encodedSolidusHandling), so Spring routes on the segments as sent and the path variable holds
 * the slash: /user/1/comments/100%2F..%2F.. is an invalid limit (400 invalid-parameter), not
 * Tomcat's HTML 400. What Tomcat still refuses before Spring (an encoded NUL) is answered by
 * ProblemReportValve, in place of the host's stock ErrorReportValve.
 */
@Configuration
public class TomcatConfig {
  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> allowTraceToTheRouter() {
    return factory -> factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
  }

  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> encodedSlashToTheRouter() {
    return factory -> factory.addConnectorCustomizers(connector -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue()));
  }

  /** Runs after Boot's own customizer, which adds a stock ErrorReportValve to the host. */
  @Bean
  ProblemErrorReports problemErrorReports() {
    return new ProblemErrorReports();
  }

  static class ProblemErrorReports implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {
    @Override
    public void customize(TomcatServletWebServerFactory factory) {
      factory.addContextCustomizers(context -> {
        StandardHost host = (StandardHost) context.getParent();
        Pipeline pipeline = host.getPipeline();
        for (Valve valve : pipeline.getValves()) {
          if (valve instanceof ErrorReportValve) pipeline.removeValve(valve);
        }
        // The host adds its errorReportValveClass at start unless the pipeline holds one.
        host.setErrorReportValveClass(ProblemReportValve.class.getName());
        pipeline.addValve(new ProblemReportValve());
      });
    }

    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }
  }

  @Bean(name = "dispatcherServlet")
  DispatcherServlet dispatcherServlet() {
    return new DispatcherServlet() {
      @Override
      protected void doTrace(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        processRequest(request, response);
      }
    };
  }
}
