package dev.fairbench.spring.users;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.fairbench.spring.sports.Chars;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * The users request bodies (spec/openapi.yaml: UserRegistration, UserUpdate, LoginRequest).
 * Unknown members are refused by Jackson (fail-on-unknown-properties), which keeps `role`
 * out of a registration (no mass assignment); explicit nulls are refused by the controller.
 * A password is 6 characters to 72 UTF-8 bytes, at login too: bcrypt reads 72 bytes, so a
 * longer one would share its account with every password of the same first 72 bytes (and
 * BCryptPasswordEncoder refuses more with an exception).
 */
public final class UsersBodies {
  private UsersBodies() {}

  /** bcrypt's input limit, in UTF-8 bytes (the schema's maxLength: 72 is the character bound JSON Schema can state). */
  static final int PASSWORD_MAX_BYTES = 72;

  public record Registration(
      @NotNull @Chars(min = 1, max = 100) String name,
      @NotNull @Chars(min = 1, max = 100) String surname,
      @NotNull @Chars(min = 3, max = 64) @Pattern(regexp = "[A-Za-z0-9._-]+") String username,
      @NotNull @Chars(min = 6, max = 72, maxBytes = PASSWORD_MAX_BYTES) String password,
      // Hibernate Validator's @Email is a syntax check (no domain lookup), as the spec's format: email.
      @Chars(max = 254) @Email String email) {}

  public record Update(@Chars(min = 1, max = 100) String name, @Chars(min = 1, max = 100) String surname) {
    @JsonIgnore
    @AssertTrue(message = "must have name or surname")
    public boolean isChanging() {
      return name != null || surname != null;
    }
  }

  public record Login(@NotNull @Chars(min = 1, max = 64) String username, @NotNull @Chars(min = 1, max = 72, maxBytes = PASSWORD_MAX_BYTES) String password) {}
}
