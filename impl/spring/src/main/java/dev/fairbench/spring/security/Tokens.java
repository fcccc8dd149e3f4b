package dev.fairbench.spring.security;

import dev.fairbench.spring.sports.Views;
import java.time.Instant;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.stereotype.Component;

/** Issues HS256 tokens: sub (the user id), role, iat, exp = iat + JWT_LIFETIME_SECONDS. */
@Component
public class Tokens {
  private final JwtEncoder encoder;
  private final long lifetimeSeconds;

  public Tokens(JwtEncoder encoder, @Value("${JWT_LIFETIME_SECONDS:3600}") long lifetimeSeconds) {
    if (lifetimeSeconds < 1) throw new IllegalArgumentException("JWT_LIFETIME_SECONDS must be a positive integer");
    this.encoder = encoder;
    this.lifetimeSeconds = lifetimeSeconds;
  }

  public long lifetimeSeconds() {
    return lifetimeSeconds;
  }

  public String issue(Views.User user) {
    return issue(String.valueOf(user.id()), user.role());
  }

  /** A token for any API's user: `subject` is its id as the API writes it (sports: a decimal, users: an ObjectId). */
  public String issue(String subject, String role) {
    Instant now = Instant.now();
    JwtClaimsSet claims = JwtClaimsSet.builder().subject(subject).claim("role", role).issuedAt(now).expiresAt(now.plusSeconds(lifetimeSeconds)).build();
    return encoder.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).type("JWT").build(), claims)).getTokenValue();
  }
}
