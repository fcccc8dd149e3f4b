package dev.fairbench.spring.security;

import dev.fairbench.spring.sports.Views;
import java.util.Collection;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/** A verified token and the stored user it belongs to (controllers take the caller from here). */
public class CallerAuthentication extends JwtAuthenticationToken {
  private final transient Views.User caller;

  public CallerAuthentication(Jwt jwt, Views.User caller, Collection<? extends GrantedAuthority> authorities) {
    super(jwt, authorities, String.valueOf(caller.id()));
    this.caller = caller;
  }

  public Views.User caller() {
    return caller;
  }
}
