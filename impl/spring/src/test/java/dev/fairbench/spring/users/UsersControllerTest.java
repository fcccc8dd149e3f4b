package dev.fairbench.spring.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.nimbusds.jose.jwk.source.ImmutableSecret;
import dev.fairbench.spring.config.JsonConfig;
import dev.fairbench.spring.security.SecurityConfig;
import dev.fairbench.spring.security.Tokens;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.ProblemHandler;
import dev.fairbench.spring.web.ServerTimingFilter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.spec.SecretKeySpec;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.MediaType;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The users web layer and its security chain over a mocked repository: tokens, roles, the order of checks, strict bodies, the 72-byte rule, 503. */
@WebMvcTest(UsersController.class)
@Import({SecurityConfig.class, UsersSecurity.class, JsonConfig.class, UsersService.class, JsonBodies.class, Tokens.class, ProblemHandler.class, ServerTimingFilter.class})
@TestPropertySource(properties = {"JWT_SECRET=" + UsersControllerTest.SECRET, "PORT=0", "MONGO_URL=mongodb://unused/users"})
class UsersControllerTest {
  static final String SECRET = "unit-test-secret-of-at-least-32-bytes!";
  private static final UsersRepository.User ALICE = new UsersRepository.User("6650f1c2a1b2c3d4e5f60001", "Alice", "Liddell", "alice", "user", "alice@example.com");
  private static final UsersRepository.User BOB = new UsersRepository.User("6650f1c2a1b2c3d4e5f60002", "Bob", "Builder", "bob", "user", null);
  private static final UsersRepository.User ADMIN = new UsersRepository.User("6650f1c2a1b2c3d4e5f60003", "Ada", "Admin", "ada", "admin", null);
  private static final String JSON = MediaType.APPLICATION_JSON_VALUE;

  @Autowired MockMvc mvc;
  @Autowired Tokens tokens;
  @Autowired PasswordEncoder passwords;
  @MockitoBean UsersRepository repository;

  private String bearer(UsersRepository.User user) {
    given(repository.byId(new ObjectId(user.id()))).willReturn(Optional.of(user));
    return "Bearer " + tokens.issue(user.id(), user.role());
  }

  private static String signed(String secret, String sub, String role, Instant expires) {
    JwtEncoder encoder = new NimbusJwtEncoder(new ImmutableSecret<>(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256")));
    JwtClaimsSet claims = JwtClaimsSet.builder().subject(sub).claim("role", role).issuedAt(expires.minusSeconds(3600)).expiresAt(expires).build();
    return "Bearer " + encoder.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).build(), claims)).getTokenValue();
  }

  private static String unsigned(String sub, String role) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String header = b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    String claims = b64.encodeToString(("{\"sub\":\"" + sub + "\",\"role\":\"" + role + "\",\"exp\":" + (Instant.now().getEpochSecond() + 600) + "}").getBytes(StandardCharsets.UTF_8));
    return "Bearer " + header + "." + claims + ".";
  }

  @Test
  void aRegistrationIsStoredAsABcryptHashWithItsSaltAndAnsweredWithoutIt() throws Exception {
    ArgumentCaptor<String> hash = ArgumentCaptor.forClass(String.class);
    ArgumentCaptor<String> salt = ArgumentCaptor.forClass(String.class);
    given(repository.create(eq("Ada"), eq("Lovelace"), eq("ada.l"), eq("ada@example.com"), hash.capture(), salt.capture(), eq("user")))
        .willReturn(new UsersRepository.User("6650f1c2a1b2c3d4e5f60009", "Ada", "Lovelace", "ada.l", "user", "ada@example.com"));
    mvc.perform(post("/users").contentType(JSON).content("{\"name\":\"Ada\",\"surname\":\"Lovelace\",\"username\":\"ada.l\",\"password\":\"analytical\",\"email\":\"ada@example.com\"}"))
        .andExpect(status().isCreated())
        .andExpect(header().string("Location", "/users/6650f1c2a1b2c3d4e5f60009"))
        .andExpect(header().string("Server-Timing", org.hamcrest.Matchers.matchesPattern("app;dur=[0-9]+\\.[0-9]{3}")))
        .andExpect(jsonPath("$.role").value("user"))
        .andExpect(jsonPath("$.password").doesNotExist())
        .andExpect(jsonPath("$.admin").doesNotExist());
    assertThat(passwords.matches("analytical", hash.getValue())).isTrue();
    assertThat(hash.getValue()).startsWith(salt.getValue()).matches("\\$2[aby]\\$10\\$.{53}");
    assertThat(salt.getValue()).hasSize(29);
  }

  @Test
  void aUserWithoutEmailHasNoEmailMember() throws Exception {
    given(repository.byId(new ObjectId(BOB.id()))).willReturn(Optional.of(BOB));
    mvc.perform(get("/users/" + BOB.id())).andExpect(status().isOk()).andExpect(jsonPath("$.email").doesNotExist()).andExpect(jsonPath("$.username").value("bob"));
  }

  @Test
  void unknownMembersNullsAndWrongTypesAreInvalidBodies() throws Exception {
    for (String body : List.of(
        "{\"name\":\"M\",\"surname\":\"E\",\"username\":\"mallory\",\"password\":\"secret1\",\"role\":\"admin\"}",
        "{\"name\":\"M\",\"surname\":\"E\",\"username\":\"mallory\",\"password\":\"secret1\",\"email\":null}",
        "{\"name\":\"M\",\"surname\":\"E\",\"username\":\"mallory\",\"password\":123456}",
        "{\"name\":\"M\",\"surname\":\"E\",\"username\":\"mallory\",\"password\":\"secret1\",\"email\":\"a b@c.d\"}",
        "{\"name\":\"M\",\"surname\":\"E\",\"username\":\"mal lory\",\"password\":\"secret1\"}",
        "[]", "null")) {
      mvc.perform(post("/users").contentType(JSON).content(body)).andExpect(status().isBadRequest()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    }
    verify(repository, never()).create(anyString(), anyString(), anyString(), any(), anyString(), anyString(), anyString());
  }

  @Test
  void aPasswordIsAtMost72BytesAtRegistrationAndAtLogin() throws Exception {
    String over = "é".repeat(37); // 37 characters, 74 bytes
    mvc.perform(post("/users").contentType(JSON).content("{\"name\":\"N\",\"surname\":\"S\",\"username\":\"newuser\",\"password\":\"" + over + "\"}"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    mvc.perform(post("/auth/login").contentType(JSON).content("{\"username\":\"alice\",\"password\":\"" + over + "\"}"))
        .andExpect(status().isBadRequest());
    verifyNoInteractions(repository);
    given(repository.create(anyString(), anyString(), anyString(), any(), anyString(), anyString(), anyString())).willReturn(BOB);
    mvc.perform(post("/users").contentType(JSON).content("{\"name\":\"N\",\"surname\":\"S\",\"username\":\"newuser\",\"password\":\"" + "é".repeat(36) + "\"}"))
        .andExpect(status().isCreated());
  }

  @Test
  void loginGivesATokenForTheStoredUserAndTheSame401ForAnUnknownOne() throws Exception {
    given(repository.credentials("alice")).willReturn(Optional.of(new UsersRepository.Credentials(ALICE, passwords.encode("wonderland"))));
    given(repository.credentials("nobody")).willReturn(Optional.empty());
    mvc.perform(post("/auth/login").contentType(JSON).content("{\"username\":\"alice\",\"password\":\"wonderland\"}"))
        .andExpect(status().isOk()).andExpect(jsonPath("$.tokenType").value("Bearer")).andExpect(jsonPath("$.expiresIn").value(3600));
    String wrong = mvc.perform(post("/auth/login").contentType(JSON).content("{\"username\":\"alice\",\"password\":\"looking-glass\"}"))
        .andExpect(status().isUnauthorized()).andExpect(header().string("WWW-Authenticate", "Bearer")).andReturn().getResponse().getContentAsString();
    String unknown = mvc.perform(post("/auth/login").contentType(JSON).content("{\"username\":\"nobody\",\"password\":\"looking-glass\"}"))
        .andExpect(status().isUnauthorized()).andReturn().getResponse().getContentAsString();
    assertThat(unknown).isEqualTo(wrong);
  }

  @Test
  void meNeedsAValidTokenOfAStoredUser() throws Exception {
    mvc.perform(get("/me")).andExpect(status().isUnauthorized()).andExpect(header().string("WWW-Authenticate", "Bearer"))
        .andExpect(content().contentType("application/problem+json")).andExpect(jsonPath("$.type").value("urn:fairbench:problem:unauthorized"));
    mvc.perform(get("/me").header("Authorization", bearer(ALICE))).andExpect(status().isOk()).andExpect(jsonPath("$.id").value(ALICE.id()));
    given(repository.byId(any())).willReturn(Optional.empty());
    for (String token : List.of(
        "Bearer " + tokens.issue("6650f1c2a1b2c3d4e5f60099", "user"), // a user that does not exist (any more)
        "Bearer " + tokens.issue("7", "user"), // a sports subject
        signed("another-secret-of-at-least-32-bytes!!", ALICE.id(), "user", Instant.now().plusSeconds(600)),
        signed(SECRET, ALICE.id(), "user", Instant.now().minusSeconds(5)), // expired, no clock skew
        unsigned(ALICE.id(), "admin"), "Bearer not.a.token", "bearer", "Basic YWxpY2U6c2VjcmV0")) {
      mvc.perform(get("/me").header("Authorization", token)).andExpect(status().isUnauthorized()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:unauthorized"));
    }
  }

  @Test
  void theStoredRoleDecidesTheAdminReadBeforeItsLimit() throws Exception {
    String userClaimingAdmin = "Bearer " + tokens.issue(ALICE.id(), "admin");
    given(repository.byId(new ObjectId(ALICE.id()))).willReturn(Optional.of(ALICE));
    mvc.perform(get("/admin/users?limit=0").header("Authorization", userClaimingAdmin)).andExpect(status().isForbidden())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:forbidden"));
    mvc.perform(get("/admin/users?limit=0").header("Authorization", bearer(ADMIN))).andExpect(status().isBadRequest());
    given(repository.list(anyInt())).willReturn(List.of(ALICE, BOB));
    mvc.perform(get("/admin/users?limit=2").header("Authorization", bearer(ADMIN))).andExpect(status().isOk()).andExpect(jsonPath("$[1].username").value("bob"));
  }

  @Test
  void aTokenOnAnOpenRouteIsNotRead() throws Exception {
    given(repository.list(100)).willReturn(List.of(ALICE));
    mvc.perform(get("/users").header("Authorization", "Bearer not.a.token")).andExpect(status().isOk()).andExpect(jsonPath("$[0].id").value(ALICE.id()));
    mvc.perform(post("/me").header("Authorization", "Bearer not.a.token")).andExpect(status().isMethodNotAllowed());
  }

  @Test
  void updateChecksTokenIdPermissionBodyThenExistence() throws Exception {
    mvc.perform(put("/users/" + BOB.id()).contentType(JSON).content("{\"name\":\"X\"}")).andExpect(status().isUnauthorized());
    String alice = bearer(ALICE);
    mvc.perform(put("/users/ABC").header("Authorization", alice).contentType(MediaType.TEXT_PLAIN).content("x")).andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-parameter"));
    // another user's id, and an id nobody has: a 403 before the body is looked at
    mvc.perform(put("/users/" + BOB.id()).header("Authorization", alice).contentType(MediaType.TEXT_PLAIN).content("x")).andExpect(status().isForbidden());
    mvc.perform(delete("/users/6650f1c2a1b2c3d4e5f60099").header("Authorization", alice)).andExpect(status().isForbidden());
    mvc.perform(put("/users/" + ALICE.id()).header("Authorization", alice).contentType(MediaType.TEXT_PLAIN).content("x")).andExpect(status().isUnsupportedMediaType());
    mvc.perform(put("/users/" + ALICE.id()).header("Authorization", alice).contentType(JSON).content("{}")).andExpect(status().isBadRequest());
    mvc.perform(put("/users/" + ALICE.id()).header("Authorization", alice).contentType(JSON).content("{\"password\":\"newpassword\"}")).andExpect(status().isBadRequest());
    verify(repository, never()).update(any(), any());
    given(repository.update(eq(new ObjectId(ALICE.id())), any())).willReturn(Optional.of(ALICE));
    mvc.perform(put("/users/" + ALICE.id()).header("Authorization", alice).contentType(JSON).content("{\"surname\":\"Byron\"}")).andExpect(status().isOk());
    // an admin may change anyone; an unknown id is then a 404
    given(repository.update(eq(new ObjectId(BOB.id())), any())).willReturn(Optional.empty());
    mvc.perform(put("/users/" + BOB.id()).header("Authorization", bearer(ADMIN)).contentType(JSON).content("{\"name\":\"X\"}")).andExpect(status().isNotFound());
    given(repository.delete(new ObjectId(BOB.id()))).willReturn(true);
    mvc.perform(delete("/users/" + BOB.id()).header("Authorization", bearer(ADMIN))).andExpect(status().isNoContent());
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsA503EvenWhileLoadingTheCaller() throws Exception {
    given(repository.list(anyInt())).willThrow(new DataAccessResourceFailureException("timed out"));
    mvc.perform(get("/users")).andExpect(status().isServiceUnavailable()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:unavailable"));
    given(repository.byId(any())).willThrow(new DataAccessResourceFailureException("timed out"));
    mvc.perform(get("/me").header("Authorization", "Bearer " + tokens.issue(ALICE.id(), "user"))).andExpect(status().isServiceUnavailable())
        .andExpect(content().contentType("application/problem+json"));
  }
}
