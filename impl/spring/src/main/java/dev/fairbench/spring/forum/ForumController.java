package dev.fairbench.spring.forum;

import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemException;
import dev.fairbench.spring.web.ProblemHandler;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The forum's four REST reads (routes; other methods on these paths: the router's 405 with
 * Allow). Path parameters are taken as strings and checked by ForumArguments (Spring's int
 * conversion would take "01" and "+1", and answer a bad one with its own 400); a row that does
 * not exist is a 404 problem; a database that does not answer in time a 503.
 */
@RestController
@ConditionalOnProperty(name = "MYSQL_URL")
public class ForumController {
  private static final Logger log = LoggerFactory.getLogger(ForumController.class);
  private final ForumService service;

  public ForumController(ForumService service) {
    this.service = service;
  }

  private static int id(String raw) {
    Integer id = ForumArguments.id(raw);
    if (id == null) throw new ProblemException(Problem.Kind.INVALID_PARAMETER, "path parameter 'id' must be " + ForumArguments.ID_RULE);
    return id;
  }

  private static int limit(String raw) {
    Integer limit = ForumArguments.limit(raw);
    if (limit == null) throw new ProblemException(Problem.Kind.INVALID_PARAMETER, "path parameter 'limit' must be " + ForumArguments.LIMIT_RULE);
    return limit;
  }

  @GetMapping("/comment/{id}")
  ForumViews.Comment commentById(@PathVariable("id") String rawId) {
    int id = id(rawId);
    return service.commentById(id).orElseThrow(() -> new ProblemException(Problem.Kind.NOT_FOUND, "comment " + id + " does not exist"));
  }

  @GetMapping("/comments/{limit}")
  List<ForumViews.Comment> commentsByLimit(@PathVariable("limit") String rawLimit) {
    return service.commentsByLimit(limit(rawLimit));
  }

  @GetMapping("/user/{id}/comment")
  ForumViews.CommentWithUser firstCommentOfUser(@PathVariable("id") String rawId) {
    int id = id(rawId);
    return service.firstCommentOfUser(id).orElseThrow(() -> new ProblemException(Problem.Kind.NOT_FOUND, "user " + id + " does not exist or has no comment"));
  }

  @GetMapping("/user/{id}/comments/{limit}")
  List<ForumViews.CommentWithUser> commentsOfUser(@PathVariable("id") String rawId, @PathVariable("limit") String rawLimit) {
    int id = id(rawId);
    int limit = limit(rawLimit);
    return service.commentsOfUser(id, limit).orElseThrow(() -> new ProblemException(Problem.Kind.NOT_FOUND, "user " + id + " does not exist"));
  }

  /** A database that did not answer (in time) is a 503 with Retry-After; any other data-access failure a fault (500, logged). */
  @ExceptionHandler(DataAccessException.class)
  ResponseEntity<Problem> database(DataAccessException e) {
    if (ForumDatabase.unavailable(e)) {
      return ResponseEntity.status(503).header(HttpHeaders.RETRY_AFTER, "1").contentType(ProblemHandler.PROBLEM_JSON)
          .body(Problem.Kind.UNAVAILABLE.with("the database did not answer in time; retry later"));
    }
    log.error("forum: unexpected database error", e);
    return ProblemHandler.render(Problem.Kind.INTERNAL.with(null));
  }
}
