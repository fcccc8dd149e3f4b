package dev.fairbench.spring.web;

import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.fairbench.spring.config.JsonConfig;
import dev.fairbench.spring.security.SecurityConfig;
import dev.fairbench.spring.security.Tokens;
import dev.fairbench.spring.sports.SportsController;
import dev.fairbench.spring.sports.SportsRepository;
import dev.fairbench.spring.sports.SportsService;
import dev.fairbench.spring.sports.Views;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** A database that does not answer in time is a 503 unavailable problem, in a controller and in the caller's lookup alike. */
@WebMvcTest(SportsController.class)
// The same context as SportsControllerTest (Spring caches it: no second start); the DatabaseUnavailable filter is a @Component filter, which @WebMvcTest picks up.
@Import({SecurityConfig.class, JsonConfig.class, SportsService.class, JsonBodies.class, Tokens.class, ProblemHandler.class, ServerTimingFilter.class})
@TestPropertySource(properties = {"JWT_SECRET=unit-test-secret-of-at-least-32-bytes!", "PORT=0", "POSTGRES_URL=postgres://unused/sports"})
class DatabaseUnavailableTest {
  private static final Views.User USER = new Views.User(7, "user1", "Ada", "Rossi", "user");

  @Autowired MockMvc mvc;
  @Autowired Tokens tokens;
  @MockitoBean SportsRepository repository;

  @Test
  void aStatementTimeoutInAControllerIsA503Problem() throws Exception {
    given(repository.userById(USER.id())).willReturn(Optional.of(USER));
    given(repository.facilities(1, 20)).willThrow(new QueryTimeoutException("socket read timed out"));
    mvc.perform(get("/sports/sports-facilities").header("Authorization", "Bearer " + tokens.issue(USER)))
        .andExpect(status().isServiceUnavailable())
        .andExpect(content().contentType("application/problem+json"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:unavailable"))
        .andExpect(jsonPath("$.status").value(503));
  }

  @Test
  void aPoolCheckoutTimeoutInTheCallersLookupIsA503Problem() throws Exception {
    given(repository.userById(anyInt())).willThrow(new CannotGetJdbcConnectionException("Connection is not available, request timed out after 2000ms"));
    mvc.perform(get("/sports/sports-facilities").header("Authorization", "Bearer " + tokens.issue(USER)))
        .andExpect(status().isServiceUnavailable())
        .andExpect(content().contentType("application/problem+json"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:unavailable"));
  }
}
