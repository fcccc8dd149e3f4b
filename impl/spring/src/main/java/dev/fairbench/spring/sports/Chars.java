package dev.fairbench.spring.sports;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A string's length in characters (Unicode code points), as JSON Schema's minLength and
 * maxLength count it; Bean Validation's @Size counts UTF-16 units, so a name of astral
 * characters would be refused below the spec's limit.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = Chars.Validator.class)
public @interface Chars {
  int min() default 0;

  int max() default Integer.MAX_VALUE;

  /** At most this many bytes in UTF-8 too (a password: bcrypt reads 72 bytes, and BCryptPasswordEncoder refuses more with an exception). */
  int maxBytes() default Integer.MAX_VALUE;

  String message() default "length must be between {min} and {max} characters";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  class Validator implements ConstraintValidator<Chars, String> {
    private int min;
    private int max;
    private int maxBytes;

    @Override
    public void initialize(Chars chars) {
      min = chars.min();
      max = chars.max();
      maxBytes = chars.maxBytes();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
      if (value == null) return true;
      int n = value.codePointCount(0, value.length());
      return n >= min && n <= max && (maxBytes == Integer.MAX_VALUE || value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= maxBytes);
    }
  }
}
