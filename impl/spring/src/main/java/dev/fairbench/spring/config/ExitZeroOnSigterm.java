package dev.fairbench.spring.config;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;
import sun.misc.Signal;

/**
 * SIGTERM closes the application (server.shutdown=graceful: Tomcat stops accepting, requests
 * in flight finish within spring.lifecycle.timeout-per-shutdown-phase, then the pool closes)
 * and exits 0: the JVM's own handler runs the same shutdown hook but exits 143, which a
 * process manager reads as a crash.
 */
@Component
public class ExitZeroOnSigterm implements ApplicationListener<ApplicationReadyEvent> {
  @Override
  public void onApplicationEvent(ApplicationReadyEvent event) {
    Signal.handle(new Signal("TERM"), signal -> System.exit(SpringApplication.exit(event.getApplicationContext())));
  }
}
