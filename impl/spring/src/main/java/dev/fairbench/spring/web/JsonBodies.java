package dev.fairbench.spring.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * Request bodies, read when the handler is ready for them: the spec checks the token, the
 * path, existence and permission before the body, and Spring's @RequestBody would parse it
 * first. Order: media type (415), size (413), JSON in UTF-8 (400 malformed-body), schema (400
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
    requireUtf8(body);
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

  /**
   * Bytes that are not UTF-8 are not JSON (RFC 8259 §8.1): 400 malformed-body. Jackson's own
   * decoder refuses most such bytes but reads an overlong form (C0 AE) as the character it
   * spells (issue 51); the JDK's decoder (REPORT on malformed input) refuses every one. The
   * characters go to a small buffer, overwritten: only whether the bytes decode matters.
   */
  public static void requireUtf8(byte[] body) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
    ByteBuffer in = ByteBuffer.wrap(body);
    CharBuffer out = CharBuffer.allocate(1024);
    for (CoderResult result = decoder.decode(in, out, true); ; result = decoder.decode(in, out, true)) {
      if (result.isError()) throw new ProblemException(Problem.Kind.MALFORMED_BODY, "request body is not UTF-8, so not JSON");
      if (result.isUnderflow()) return;
      out.clear();
    }
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
