package dev.fairbench.spring.users;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fairbench.spring.security.SecurityConfig;
import org.bson.types.ObjectId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The users API's own SecurityFilterChain, chosen by path before the default chain
 * (security/SecurityConfig, which holds sports' rules and lets everything else through):
 * Spring Security's "multiple SecurityFilterChain" setup. Both chains share the HS256
 * decoder (JWT_SECRET, HS256 only, exp required), the encoder and the 401/403 problems;
 * what differs is the subject (an ObjectId here, a decimal id in sports) and where the
 * caller is loaded from (MongoDB here), so each chain has its own converter.
 *
 * Rules (spec/README.md, users 7 and 9): PUT and DELETE /users/{id} and GET /me need a
 * valid token, GET /admin/users the stored admin role (403 before `limit` is looked at);
 * every other request of these paths is open, and a token sent to an open one is not even
 * read (as in the other implementations: a bad token on GET /users is no 401), so the
 * bearer token resolver looks only at the protected requests.
 */
@Configuration
@ConditionalOnProperty(name = "MONGO_URL")
public class UsersSecurity {
  private static final PathPatternRequestMatcher.Builder PATHS = PathPatternRequestMatcher.withDefaults();
  private static final RequestMatcher ADMIN = new OrRequestMatcher(PATHS.matcher(HttpMethod.GET, "/admin/users"), PATHS.matcher(HttpMethod.HEAD, "/admin/users"));
  private static final RequestMatcher AUTHENTICATED = new OrRequestMatcher(
      PATHS.matcher(HttpMethod.PUT, "/users/{id}"), PATHS.matcher(HttpMethod.DELETE, "/users/{id}"),
      PATHS.matcher(HttpMethod.GET, "/me"), PATHS.matcher(HttpMethod.HEAD, "/me"));
  private static final RequestMatcher PROTECTED = new OrRequestMatcher(ADMIN, AUTHENTICATED);

  @Bean
  @Order(1)
  SecurityFilterChain usersFilterChain(HttpSecurity http, AuthenticationEntryPoint entryPoint, JwtDecoder decoder, UsersRepository users, ObjectMapper mapper) throws Exception {
    DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
    BearerTokenResolver onlyWhereNeeded = request -> PROTECTED.matches(request) ? bearer.resolve(request) : null;
    SecurityConfig.stateless(http, entryPoint, mapper)
        .securityMatcher(new OrRequestMatcher(PATHS.matcher("/users"), PATHS.matcher("/users/{id}"), PATHS.matcher("/auth/login"), PATHS.matcher("/me"), PATHS.matcher("/admin/users")))
        .authorizeHttpRequests(a -> a.requestMatchers(ADMIN).hasRole("admin").requestMatchers(AUTHENTICATED).authenticated().anyRequest().permitAll())
        .oauth2ResourceServer(o -> o.bearerTokenResolver(onlyWhereNeeded).authenticationEntryPoint(entryPoint)
            .jwt(j -> j.decoder(decoder).jwtAuthenticationConverter(jwt -> caller(jwt, users))));
    return http.build();
  }

  /** The stored user behind a verified token, or a 401: `sub` must be a user id, and the user must still exist. */
  static UserAuthentication caller(Jwt jwt, UsersRepository users) {
    String sub = jwt.getSubject();
    if (sub == null || !UsersService.OBJECT_ID.matcher(sub).matches()) throw new InvalidBearerTokenException("the token is not valid");
    UsersRepository.User user = users.byId(new ObjectId(sub)).orElseThrow(() -> new InvalidBearerTokenException("the token is not valid"));
    return new UserAuthentication(jwt, user);
  }
}
