package dev.fairbench.spring.documents;

import com.fasterxml.jackson.databind.JsonNode;
import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemException;
import dev.fairbench.spring.web.ProblemHandler;
import java.net.URI;
import java.util.regex.Pattern;
import org.bson.types.ObjectId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * POST /documents, GET|PUT|DELETE /documents/{id}. Faults in the spec's order: the body as
 * bytes (415, 413, 400 malformed-body), the id (400 invalid-parameter: 24 lowercase hex
 * digits only, not any string the driver would turn into an ObjectId), the body's shape
 * (400 invalid-body), existence (404). A database that does not answer in time is a 503.
 */
@RestController
@RequestMapping("/documents")
@ConditionalOnProperty(name = "MONGO_URL")
public class DocumentsController {
  private static final Logger log = LoggerFactory.getLogger(DocumentsController.class);
  /** 512 KiB: every valid body fits (the largest, a table with every character escaped, is ~280 KB). */
  static final int BODY_LIMIT = 524288;
  private static final Pattern OBJECT_ID = Pattern.compile("[0-9a-f]{24}");

  private final DocumentsRepository repository;
  private final JsonBodies bodies;

  public DocumentsController(DocumentsRepository repository, JsonBodies bodies) {
    this.repository = repository;
    this.bodies = bodies;
  }

  private static ObjectId id(String raw) {
    if (!OBJECT_ID.matcher(raw).matches()) throw new ProblemException(Problem.Kind.INVALID_PARAMETER, "id must be a document id (24 lowercase hexadecimal digits)");
    return new ObjectId(raw);
  }

  private static ProblemException notFound(String id) {
    return new ProblemException(Problem.Kind.NOT_FOUND, "document " + id + " does not exist");
  }

  private JsonNode json(String type, byte[] body) {
    return bodies.read(type, body, JsonNode.class, BODY_LIMIT);
  }

  @PostMapping
  ResponseEntity<DocumentsRepository.Stored> create(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    DocumentsRepository.Stored created = repository.create(DocumentsInput.of(json(type, body)));
    return ResponseEntity.created(URI.create("/documents/" + created.id())).body(created);
  }

  @GetMapping("/{id}")
  DocumentsRepository.Stored get(@PathVariable String id) {
    return repository.find(id(id)).orElseThrow(() -> notFound(id));
  }

  @PutMapping("/{id}")
  DocumentsRepository.Stored replace(@PathVariable String id, @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type,
      @RequestBody(required = false) byte[] body) {
    JsonNode json = json(type, body);
    ObjectId objectId = id(id);
    return repository.replace(objectId, DocumentsInput.of(json)).orElseThrow(() -> notFound(id));
  }

  @DeleteMapping("/{id}")
  ResponseEntity<Void> delete(@PathVariable String id) {
    if (!repository.delete(id(id))) throw notFound(id);
    return ResponseEntity.noContent().build();
  }

  /**
   * No server in time, a socket timeout, a lost connection, or a pool the driver cleared after
   * one (every operation waiting on it fails at once): a 503; any other driver error is a
   * fault (500, logged).
   */
  @ExceptionHandler(MongoException.class)
  ResponseEntity<Problem> database(MongoException e) {
    if (e instanceof MongoTimeoutException || e instanceof MongoSocketException || e instanceof MongoConnectionPoolClearedException) {
      return ResponseEntity.status(503).header(HttpHeaders.RETRY_AFTER, "1").contentType(ProblemHandler.PROBLEM_JSON)
          .body(Problem.Kind.UNAVAILABLE.with("the database did not answer in time; retry later"));
    }
    log.error("documents: unexpected database error", e);
    return ProblemHandler.render(Problem.Kind.INTERNAL.with(null));
  }
}
