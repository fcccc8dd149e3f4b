package dev.fairbench.spring.users;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fairbench.spring.security.Tokens;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.Params;
import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemException;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.bson.types.ObjectId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The users API's routes: GET|POST /users, GET|PUT|DELETE /users/{id}, POST /auth/login,
 * GET /me, GET /admin/users. The token (and the admin role) are checked by UsersSecurity
 * before these run; then, on PUT and DELETE, the id (400), the permission (403), the body
 * (415, 413, 400) and existence (404), in the spec's order: bodies arrive as bytes and are
 * read by JsonBodies only when their turn comes.
 */
@RestController
@ConditionalOnProperty(name = "MONGO_URL")
public class UsersController {
  private static final int DEFAULT_LIMIT = 100;

  private final UsersService service;
  private final JsonBodies bodies;
  private final ObjectMapper mapper;
  private final Tokens tokens;

  public UsersController(UsersService service, JsonBodies bodies, ObjectMapper mapper, Tokens tokens) {
    this.service = service;
    this.bodies = bodies;
    this.mapper = mapper;
    this.tokens = tokens;
  }

  /** The body as `shape`; an explicit null member is refused too (no member is nullable, and a record cannot tell it from a missing one). */
  private <T> T body(String type, byte[] body, Class<T> shape) {
    T value = bodies.read(type, body, shape);
    try {
      for (JsonNode member : mapper.readTree(body)) {
        if (member.isNull()) throw new ProblemException(Problem.Kind.INVALID_BODY, "no member may be null");
      }
    } catch (IOException e) {
      throw new ProblemException(Problem.Kind.MALFORMED_BODY, "request body is not valid JSON");
    }
    return value;
  }

  private static int limit(String raw) {
    return Params.query("limit", raw, 100, DEFAULT_LIMIT);
  }

  @GetMapping("/users")
  List<UsersRepository.User> list(@RequestParam(required = false) String limit) {
    return service.list(limit(limit));
  }

  @PostMapping("/users")
  ResponseEntity<UsersRepository.User> register(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    UsersRepository.User user = service.register(body(type, body, UsersBodies.Registration.class));
    return ResponseEntity.created(URI.create("/users/" + user.id())).body(user);
  }

  @GetMapping("/users/{id}")
  UsersRepository.User get(@PathVariable String id) {
    return service.get(UsersService.id(id));
  }

  @PutMapping("/users/{id}")
  UsersRepository.User update(UserAuthentication auth, @PathVariable String id, @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type,
      @RequestBody(required = false) byte[] body) {
    ObjectId target = UsersService.id(id);
    service.mayChange(auth.caller(), target);
    return service.update(target, body(type, body, UsersBodies.Update.class));
  }

  @DeleteMapping("/users/{id}")
  ResponseEntity<Void> delete(UserAuthentication auth, @PathVariable String id) {
    ObjectId target = UsersService.id(id);
    service.mayChange(auth.caller(), target);
    service.delete(target);
    return ResponseEntity.noContent().build();
  }

  @PostMapping("/auth/login")
  Map<String, Object> login(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    UsersRepository.User user = service.login(body(type, body, UsersBodies.Login.class));
    return Map.of("token", tokens.issue(user.id(), user.role()), "tokenType", "Bearer", "expiresIn", tokens.lifetimeSeconds());
  }

  @GetMapping("/me")
  UsersRepository.User me(UserAuthentication auth) {
    return auth.caller();
  }

  /** The same list as GET /users, for admins only (UsersSecurity). */
  @GetMapping("/admin/users")
  List<UsersRepository.User> adminList(@RequestParam(required = false) String limit) {
    return service.list(limit(limit));
  }
}
