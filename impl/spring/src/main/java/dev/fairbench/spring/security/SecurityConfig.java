package dev.fairbench.spring.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import dev.fairbench.spring.sports.SportsRepository;
import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Bearer tokens the way Spring Security's resource server does them, with the users API's
 * rules: HS256 only with JWT_SECRET, `exp` required, `sub` a user id, and the caller loaded
 * from the database on every request (an unknown user is a 401; the stored role is the
 * authority, not the token's claim). Login and sign-up are open; every other /sports path
 * needs a token; anything else (health, unknown paths, tpcc's open transactions) is left to
 * the router. The sports rules exist only when the sports API is served (POSTGRES_URL set).
 * This is the default chain (no securityMatcher, so it comes last); the users API has its own
 * chain by path (users/UsersSecurity) sharing the decoder, the encoder and the problems.
 */
@Configuration
public class SecurityConfig {
  private static final Pattern SUBJECT = Pattern.compile("[1-9][0-9]{0,9}");
  private static final PathPatternRequestMatcher.Builder PATHS = PathPatternRequestMatcher.withDefaults();
  /**
   * The requests whose token is read: every /sports path but login and sign-up. Elsewhere a
   * token is not this chain's business (health, tpcc, another API's token sent everywhere, as
   * the fuzzer does), so it is ignored, as users/UsersSecurity ignores it on its open routes.
   */
  private static final RequestMatcher PROTECTED = new AndRequestMatcher(
      PATHS.matcher("/sports/**"), new NegatedRequestMatcher(new OrRequestMatcher(PATHS.matcher("/sports/login"), PATHS.matcher("/sports/users"))));

  @Bean
  SecurityFilterChain filterChain(HttpSecurity http, AuthenticationEntryPoint entryPoint, ObjectProvider<SportsRepository> sportsUsers, ObjectMapper mapper) throws Exception {
    SportsRepository users = sportsUsers.getIfAvailable();
    stateless(http, entryPoint, mapper)
        .authorizeHttpRequests(a -> {
          if (users != null) {
            a.requestMatchers(HttpMethod.POST, "/sports/login", "/sports/users").permitAll()
                .requestMatchers("/sports/login", "/sports/users").permitAll()
                .requestMatchers("/sports/**").authenticated();
          }
          a.anyRequest().permitAll();
        });
    if (users != null) {
      DefaultBearerTokenResolver bearer = new DefaultBearerTokenResolver();
      BearerTokenResolver onlyWhereNeeded = request -> PROTECTED.matches(request) ? bearer.resolve(request) : null;
      http.oauth2ResourceServer(o -> o.bearerTokenResolver(onlyWhereNeeded).authenticationEntryPoint(entryPoint).jwt(j -> j.jwtAuthenticationConverter(jwt -> caller(jwt, users))));
    }
    return http.build();
  }

  /**
   * What every API's chain shares (users/UsersSecurity adds a second chain by path): no
   * session, no CSRF (bearer tokens, no cookies), no login page, and 401/403 problems.
   */
  public static HttpSecurity stateless(HttpSecurity http, AuthenticationEntryPoint entryPoint, ObjectMapper mapper) throws Exception {
    return http.csrf(csrf -> csrf.disable())
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .requestCache(c -> c.disable())
        .httpBasic(b -> b.disable())
        .formLogin(f -> f.disable())
        .logout(l -> l.disable())
        .anonymous(a -> {})
        .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint).accessDeniedHandler(accessDenied(mapper)));
  }

  /** The stored user behind a verified token, or a 401. */
  private static CallerAuthentication caller(Jwt jwt, SportsRepository users) {
    String sub = jwt.getSubject();
    if (sub == null || !SUBJECT.matcher(sub).matches() || Long.parseLong(sub) > 2147483647L) throw new InvalidBearerTokenException("the token is not valid");
    var user = users.userById(Integer.parseInt(sub)).orElseThrow(() -> new InvalidBearerTokenException("the token is not valid"));
    return new CallerAuthentication(jwt, user, List.of(new SimpleGrantedAuthority("ROLE_" + user.role())));
  }

  @Bean
  AuthenticationEntryPoint entryPoint(ObjectMapper mapper) {
    return (request, response, e) -> {
      response.setStatus(401);
      response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
      response.setContentType(ProblemHandler.PROBLEM_JSON.toString());
      mapper.writeValue(response.getOutputStream(), Problem.Kind.UNAUTHORIZED.with(request.getHeader(HttpHeaders.AUTHORIZATION) == null ? "a bearer token is required" : "the token is not valid"));
    };
  }

  private static AccessDeniedHandler accessDenied(ObjectMapper mapper) {
    return (request, response, e) -> {
      response.setStatus(403);
      response.setContentType(ProblemHandler.PROBLEM_JSON.toString());
      mapper.writeValue(response.getOutputStream(), Problem.Kind.FORBIDDEN.with("not allowed"));
    };
  }

  /**
   * Spring Security's firewall: any method passes (Spring MVC answers the ones no route
   * serves, TRACE and QUERY included, with its 405 and Allow header), the URL rules stay;
   * a URL it refuses (an encoded percent sign, a control character) is a 400
   * invalid-parameter problem instead of Boot's error page.
   */
  @Bean
  HttpFirewall httpFirewall() {
    StrictHttpFirewall firewall = new StrictHttpFirewall();
    firewall.setUnsafeAllowAnyHttpMethod(true);
    return firewall;
  }

  @Bean
  RequestRejectedHandler requestRejectedHandler(ObjectMapper mapper) {
    return (request, response, e) -> {
      response.setStatus(400);
      response.setContentType(ProblemHandler.PROBLEM_JSON.toString());
      mapper.writeValue(response.getOutputStream(), Problem.Kind.INVALID_PARAMETER.with("the request's URL is not allowed"));
    };
  }

  @Bean
  SecretKey jwtKey(@Value("${JWT_SECRET}") String secret) {
    return new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  @Bean
  JwtDecoder jwtDecoder(SecretKey key) {
    NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(key).macAlgorithm(MacAlgorithm.HS256).build();
    // No clock skew (the validator's default is 60 s): a token whose exp has passed is refused, as in the other implementations.
    decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(new JwtTimestampValidator(Duration.ZERO), new JwtClaimValidator<Instant>("exp", Objects::nonNull)));
    return decoder;
  }

  @Bean
  JwtEncoder jwtEncoder(SecretKey key) {
    return new NimbusJwtEncoder(new ImmutableSecret<>(key));
  }

  @Bean
  PasswordEncoder passwordEncoder() {
    return new BCryptPasswordEncoder(10);
  }
}
