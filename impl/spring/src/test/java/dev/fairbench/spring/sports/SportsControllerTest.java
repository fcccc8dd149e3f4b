package dev.fairbench.spring.sports;

import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.fairbench.spring.config.JsonConfig;
import dev.fairbench.spring.security.SecurityConfig;
import dev.fairbench.spring.security.Tokens;
import dev.fairbench.spring.web.HealthController;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.ProblemHandler;
import dev.fairbench.spring.web.ServerTimingFilter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The web layer over a mocked repository: security, order of checks, strict bodies, problems, Server-Timing. */
@WebMvcTest({SportsController.class, HealthController.class})
@Import({SecurityConfig.class, JsonConfig.class, SportsService.class, JsonBodies.class, Tokens.class, ProblemHandler.class, ServerTimingFilter.class})
@TestPropertySource(properties = {"JWT_SECRET=unit-test-secret-of-at-least-32-bytes!", "PORT=0", "POSTGRES_URL=postgres://unused/sports"})
class SportsControllerTest {
  private static final Views.User USER = new Views.User(7, "user1", "Ada", "Rossi", "user");
  private static final Views.User OWNER = new Views.User(1, "owner1", "Luigi", "Bruno", "owner");

  @Autowired MockMvc mvc;
  @Autowired Tokens tokens;
  @MockitoBean SportsRepository repository;

  private String bearer(Views.User user) {
    given(repository.userById(user.id())).willReturn(Optional.of(user));
    return "Bearer " + tokens.issue(user);
  }

  @Test
  void noTokenIsA401ProblemWithServerTiming() throws Exception {
    mvc.perform(get("/sports/sports-facilities"))
        .andExpect(status().isUnauthorized())
        .andExpect(header().string("WWW-Authenticate", "Bearer"))
        .andExpect(header().string("Server-Timing", org.hamcrest.Matchers.matchesPattern("app;dur=[0-9]+\\.[0-9]{3}")))
        .andExpect(content().contentType("application/problem+json"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:unauthorized"));
  }

  @Test
  void aTokenIsReadOnlyWhereTheSportsApiNeedsOne() throws Exception {
    // Another API's token, or none valid, on a request that needs no token: answered as without it (make fuzz sends one everywhere).
    mvc.perform(get("/health").header("Authorization", "Bearer not-a-token")).andExpect(status().isOk());
    given(repository.credentials("nobody")).willReturn(Optional.empty());
    mvc.perform(post("/sports/login").header("Authorization", "Bearer not-a-token").contentType(MediaType.APPLICATION_JSON).content("{\"username\":\"nobody\",\"password\":\"secret-1\"}"))
        .andExpect(status().isUnauthorized())
        .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.not("the token is not valid")));
    mvc.perform(get("/sports/sports-facilities").header("Authorization", "Bearer not-a-token"))
        .andExpect(status().isUnauthorized())
        .andExpect(jsonPath("$.detail").value("the token is not valid"));
  }

  @Test
  void aTokenOfAUserWhoNoLongerExistsIsA401() throws Exception {
    String token = "Bearer " + tokens.issue(new Views.User(99, "gone", "G", "G", "user"));
    given(repository.userById(anyInt())).willReturn(Optional.empty());
    mvc.perform(get("/sports/sports-facilities").header("Authorization", token)).andExpect(status().isUnauthorized());
  }

  @Test
  void aPageOfFacilities() throws Exception {
    given(repository.facilities(2, 1)).willReturn(new Views.Page<>(List.of(new Views.Facility(2, "Club", "Napoli", "Via Toledo 1", 1)), 2, 1, 6));
    mvc.perform(get("/sports/sports-facilities?page=2&size=1").header("Authorization", bearer(USER)))
        .andExpect(status().isOk())
        .andExpect(jsonPath("$.items[0].ownerId").value(1))
        .andExpect(jsonPath("$.total").value(6));
    mvc.perform(get("/sports/sports-facilities?size=101").header("Authorization", bearer(USER)))
        .andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-parameter"));
  }

  @Test
  void anOwnerCannotReserveAndTheBodyIsNotReadBeforeThat() throws Exception {
    mvc.perform(post("/sports/reservations").header("Authorization", bearer(OWNER)).contentType(MediaType.APPLICATION_JSON).content("{\"fieldId\":"))
        .andExpect(status().isForbidden())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:forbidden"));
  }

  @Test
  void bodiesAreStrict() throws Exception {
    for (String body : new String[] {"{\"username\":\"okname\",\"password\":123456,\"name\":\"S\",\"surname\":\"N\"}", "{\"username\":\"okname\",\"password\":\"secret-1\",\"name\":\"S\",\"surname\":\"N\",\"role\":\"owner\"}"}) {
      mvc.perform(post("/sports/users").contentType(MediaType.APPLICATION_JSON).content(body))
          .andExpect(status().isBadRequest())
          .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    }
    mvc.perform(post("/sports/users").contentType(MediaType.APPLICATION_JSON).content("{\"username\":"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:malformed-body"));
    mvc.perform(post("/sports/users").contentType(MediaType.TEXT_PLAIN).content("x")).andExpect(status().isUnsupportedMediaType());
    verifyNoInteractions(repository);
  }

  @Test
  void anUnknownPathIsA404Problem() throws Exception {
    mvc.perform(get("/nothing-here")).andExpect(status().isNotFound()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:not-found"));
  }
}
