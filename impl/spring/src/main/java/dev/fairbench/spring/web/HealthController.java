package dev.fairbench.spring.web;

import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** GET /health: the server can serve. */
@RestController
public class HealthController {
  @GetMapping("/health")
  Map<String, String> health() {
    return Map.of("status", "ok");
  }
}
