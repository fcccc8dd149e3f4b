package dev.fairbench.spring.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.util.Comparator;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * Request bodies, read when the handler is ready for them: the spec checks the token, the
 * path, existence and permission before the body, and Spring's @RequestBody would parse it
 * first. Order: media type (415), size (413), JSON (400 malformed-body), schema (400
 * invalid-body: Jackson's strict settings in application.properties, then Bean Validation).
 */
@Component
public class JsonBodies {
  public static final int LIMIT = 65536;
  private final ObjectMapper mapper;
  private final Validator validator;

  public JsonBodies(ObjectMapper mapper, Validator validator) {
    this.mapper = mapper;
    this.validator = validator;
  }

  public <T> T read(String contentType, byte[] body, Class<T> type) {
    return read(contentType, body, type, LIMIT);
  }

  /** The same with another size limit in bytes (an API's own, e.g. tpcc's 16 KiB). */
  public <T> T read(String contentType, byte[] body, Class<T> type, int limit) {
    if (!isJson(contentType)) throw new ProblemException(Problem.Kind.UNSUPPORTED_MEDIA_TYPE, "the body must be application/json");
    if (body != null && body.length > limit) throw new ProblemException(Problem.Kind.PAYLOAD_TOO_LARGE, "request body is larger than " + limit + " bytes");
    if (body == null || body.length == 0) throw new ProblemException(Problem.Kind.INVALID_BODY, "a body is required");
    try {
      mapper.readTree(body);
    } catch (StreamConstraintsException e) {
      // Jackson's nesting-depth limit (StreamReadConstraints): valid JSON, deeper than any body
      // schema goes, so an invalid body, as the other implementations answer it.
      throw new ProblemException(Problem.Kind.INVALID_BODY, e.getOriginalMessage());
    } catch (IOException e) {
      throw new ProblemException(Problem.Kind.MALFORMED_BODY, "request body is not valid JSON");
    }
    T value;
    try {
      value = mapper.readValue(body, type);
    } catch (MismatchedInputException e) {
      throw new ProblemException(Problem.Kind.INVALID_BODY, e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      throw new ProblemException(Problem.Kind.INVALID_BODY, e.getOriginalMessage());
    } catch (IOException e) {
      throw new ProblemException(Problem.Kind.MALFORMED_BODY, "request body is not valid JSON");
    }
    if (value == null) throw new ProblemException(Problem.Kind.INVALID_BODY, "the body must be a JSON object");
    Set<ConstraintViolation<T>> violations = validator.validate(value);
    if (!violations.isEmpty()) {
      ConstraintViolation<T> first = violations.stream().min(Comparator.comparing((ConstraintViolation<T> v) -> v.getPropertyPath().toString())).orElseThrow();
      throw new ProblemException(Problem.Kind.INVALID_BODY, first.getPropertyPath() + " " + first.getMessage());
    }
    return value;
  }

  /** Whether a Content-Type header names application/json (any parameters). */
  public static boolean isJson(String contentType) {
    if (contentType == null) return false;
    try {
      MediaType type = MediaType.parseMediaType(contentType);
      return type.getType().equalsIgnoreCase("application") && type.getSubtype().equalsIgnoreCase("json");
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
