package dev.fairbench.spring.forum;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.schema.DataFetchingEnvironment;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.dao.DataAccessException;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.GraphQlExceptionHandler;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.graphql.execution.ErrorType;
import org.springframework.stereotype.Controller;

/**
 * The Query type of spec/schema.graphql (resources/graphql/schema.graphqls) as Spring for
 * GraphQL handler methods, with the REST rules: an argument outside its range is a field
 * error with extensions.code BAD_USER_INPUT (the field is null), a row that does not exist is
 * null with no error. Comment, User and CommentWithUser are ForumViews records, read by
 * graphql-java's property fetcher. CommentWithUser.user needs no @SchemaMapping or
 * @BatchMapping: the root query reads each comment's user in the same JOIN, so a list of 100
 * comments with users is one statement (a batched user loader would add a second one, and the
 * suite allows one).
 */
@Controller
@ConditionalOnProperty(name = "MYSQL_URL")
public class ForumGraphQlController {
  private static final Logger log = LoggerFactory.getLogger(ForumGraphQlController.class);
  static final String BAD_USER_INPUT = "BAD_USER_INPUT";

  /** An argument that breaks its rule: a field error, not a request error. */
  static final class BadUserInput extends RuntimeException {
    BadUserInput(String message) {
      super(message, null, false, false);
    }
  }

  private final ForumService service;

  public ForumGraphQlController(ForumService service) {
    this.service = service;
  }

  private static int id(String raw) {
    Integer id = ForumArguments.id(raw);
    if (id == null) throw new BadUserInput("Argument \"id\" must be " + ForumArguments.ID_RULE + ".");
    return id;
  }

  private static int limit(int raw) {
    Integer limit = ForumArguments.limit(raw);
    if (limit == null) throw new BadUserInput("Argument \"limit\" must be " + ForumArguments.LIMIT_RULE + ".");
    return limit;
  }

  @QueryMapping
  public ForumViews.Comment commentById(@Argument("id") String id) {
    return service.commentById(id(id)).orElse(null);
  }

  @QueryMapping
  public List<ForumViews.Comment> commentsByLimit(@Argument("limit") int limit) {
    return service.commentsByLimit(limit(limit));
  }

  @QueryMapping
  public ForumViews.CommentWithUser commentByUserId(@Argument("id") String id) {
    return service.firstCommentOfUser(id(id)).orElse(null);
  }

  /** [] for a user without comments, null for a user that does not exist. */
  @QueryMapping
  public List<ForumViews.CommentWithUser> commentsByUserId(@Argument("id") String id, @Argument("limit") int limit) {
    int userId = id(id);
    return service.commentsOfUser(userId, limit(limit)).orElse(null);
  }

  /**
   * Spring for GraphQL's BAD_REQUEST classification, not graphql-java's default
   * DataFetchingException, which clients (and Schemathesis) read as a server failure.
   */
  @GraphQlExceptionHandler
  GraphQLError badUserInput(BadUserInput e, DataFetchingEnvironment env) {
    return GraphqlErrorBuilder.newError(env).errorType(ErrorType.BAD_REQUEST).message(e.getMessage()).extensions(Map.of("code", BAD_USER_INPUT)).build();
  }

  /** The database failed: the field is null with an error that names no internals (REST answers 503 or 500). */
  @GraphQlExceptionHandler
  GraphQLError database(DataAccessException e, DataFetchingEnvironment env) {
    if (ForumDatabase.unavailable(e)) {
      return GraphqlErrorBuilder.newError(env).errorType(ErrorType.INTERNAL_ERROR).message("The database did not answer in time; retry later.").extensions(Map.of("code", "UNAVAILABLE")).build();
    }
    log.error("forum graphql {}: unexpected database error", env.getExecutionStepInfo().getPath(), e);
    return GraphqlErrorBuilder.newError(env).errorType(ErrorType.INTERNAL_ERROR).message("Internal server error").extensions(Map.of("code", "INTERNAL_SERVER_ERROR")).build();
  }
}
