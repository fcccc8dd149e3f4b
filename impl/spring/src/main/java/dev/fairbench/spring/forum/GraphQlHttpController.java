package dev.fairbench.spring.forum;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemException;
import graphql.ExecutionResult;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.graphql.ExecutionGraphQlResponse;
import org.springframework.graphql.ExecutionGraphQlService;
import org.springframework.graphql.support.DefaultExecutionGraphQlRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.AlternativeJdkIdGenerator;
import org.springframework.util.IdGenerator;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * POST /graphql (other methods: the router's 405 with Allow: POST): GraphQL over HTTP as
 * spec/schema.graphql's header states it, executed by Spring for GraphQL's
 * ExecutionGraphQlService (the schema file, the @QueryMapping controllers, the
 * instrumentations). Spring for GraphQL's own HTTP handler is not used (its auto-configuration
 * is excluded in FairbenchSpringApplication): under application/json it answers request errors
 * with a 200, and a body it cannot read with Spring's own 400, where the contract wants a 400
 * {errors} without data for request errors and problems for the HTTP-level faults.
 * Order: media type (415), size (413), JSON (400 malformed-body problem), the request's shape
 * (400 {errors}), then execution: no data in the result (syntax, validation, the limits,
 * variables that do not coerce, an unknown operation) is a 400, otherwise a 200 {data, errors?}.
 */
@RestController
@ConditionalOnProperty(name = "MYSQL_URL")
public class GraphQlHttpController {
  /** 65,536 bytes; a larger body is a 413. */
  static final int BODY_LIMIT = 64 * 1024;
  private static final TypeReference<Map<String, Object>> VARIABLES = new TypeReference<>() {};

  private final ExecutionGraphQlService graphQl;
  private final ObjectMapper mapper;
  private final ObjectReader strictReader;
  private final IdGenerator ids = new AlternativeJdkIdGenerator();

  public GraphQlHttpController(ExecutionGraphQlService graphQl, ObjectMapper mapper) {
    this.graphQl = graphQl;
    this.mapper = mapper;
    this.strictReader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }

  @PostMapping("/graphql")
  ResponseEntity<Map<String, Object>> graphql(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type,
      @RequestBody(required = false) byte[] body) {
    if (!JsonBodies.isJson(type)) throw new ProblemException(Problem.Kind.UNSUPPORTED_MEDIA_TYPE, "POST /graphql takes an application/json body");
    if (body != null && body.length > BODY_LIMIT) throw new ProblemException(Problem.Kind.PAYLOAD_TOO_LARGE, "request body is larger than " + BODY_LIMIT + " bytes");
    JsonNode request = read(body);
    String shapeError = shapeError(request);
    if (shapeError != null) return answer(400, Map.of("errors", List.of(Map.of("message", shapeError))));
    JsonNode variables = request.get("variables");
    JsonNode operationName = request.get("operationName");
    ExecutionGraphQlResponse response = graphQl.execute(new DefaultExecutionGraphQlRequest(
        request.get("query").textValue(),
        operationName == null || operationName.isNull() ? null : operationName.textValue(),
        variables == null || variables.isNull() ? null : mapper.convertValue(variables, VARIABLES),
        null, // the request's `extensions` are ignored
        ids.generateId().toString(),
        Locale.ENGLISH)).block();
    ExecutionResult result = response.getExecutionResult();
    // No data: execution never started, a request error.
    return answer(result.isDataPresent() ? 200 : 400, result.toSpecification());
  }

  /** The body as JSON; no body at all is the empty request ("Must provide query string."). */
  private JsonNode read(byte[] body) {
    if (body == null || body.length == 0) return mapper.createObjectNode();
    JsonBodies.requireUtf8(body);
    try {
      return strictReader.readTree(body);
    } catch (IOException e) {
      throw new ProblemException(Problem.Kind.MALFORMED_BODY, "request body is not valid JSON");
    }
  }

  /** What is wrong with the body as a GraphQL-over-HTTP request, or null. */
  static String shapeError(JsonNode request) {
    if (request == null || !request.isObject()) return "The request body must be a JSON object.";
    JsonNode query = request.get("query");
    if (query == null || !query.isTextual() || query.textValue().isEmpty()) return "Must provide query string.";
    JsonNode variables = request.get("variables");
    if (variables != null && !variables.isNull() && !variables.isObject()) return "\"variables\" must be an object or null.";
    JsonNode operationName = request.get("operationName");
    if (operationName != null && !operationName.isNull() && !operationName.isTextual()) return "\"operationName\" must be a string or null.";
    return null;
  }

  private static ResponseEntity<Map<String, Object>> answer(int status, Map<String, Object> body) {
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
  }
}
