package dev.fairbench.spring.config;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * TRACE is answered like every method no route serves: the router's 405 problem with its
 * Allow header. Tomcat would refuse it itself (Boot's error page as the body), and
 * FrameworkServlet would echo the request after the router's answer; so Tomcat lets it
 * through and the dispatcher routes it without the echo.
 */
@Configuration
public class TomcatConfig {
  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> allowTraceToTheRouter() {
    return factory -> factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
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
