package dev.fairbench.spring.users;

import java.util.List;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/** A verified token and the stored user it belongs to; the stored role is the authority, not the token's claim. */
public class UserAuthentication extends JwtAuthenticationToken {
  private final transient UsersRepository.User caller;

  public UserAuthentication(Jwt jwt, UsersRepository.User caller) {
    super(jwt, List.of(new SimpleGrantedAuthority("ROLE_" + caller.role())), caller.id());
    this.caller = caller;
  }

  public UsersRepository.User caller() {
    return caller;
  }
}
