package dev.fairbench.spring.forum;

/**
 * The forum's answers (spec/openapi.yaml: ForumComment, ForumUser, ForumCommentWithUser; the
 * GraphQL types Comment, User, CommentWithUser): the column names as JSON and GraphQL field
 * names, so one record serves REST (Jackson) and GraphQL (graphql-java reads record accessors).
 * Dates are the DATE column as "YYYY-MM-DD", or null.
 */
public final class ForumViews {
  private ForumViews() {}

  public record Comment(int comment_id, int thread_id, int user_id, String body, String datemade, String datelastupdated) {}

  public record User(int user_id, String name, String email, String phone, String datemade, String datelastupdated) {}

  /** A comment with its user row, read by one INNER JOIN (no per-row query for `user`). */
  public record CommentWithUser(int comment_id, int thread_id, int user_id, String body, String datemade, String datelastupdated, User user) {}
}
