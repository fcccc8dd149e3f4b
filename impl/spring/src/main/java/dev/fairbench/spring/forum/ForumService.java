package dev.fairbench.spring.forum;

import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * The forum's rules, shared by REST (ForumController) and GraphQL (ForumGraphQlController):
 * "first" means lowest comment_id, and a user's comments are [] for a user without comments
 * but absent for a user that does not exist (one more statement, only when the join is empty).
 */
@Service
@ConditionalOnProperty(name = "MYSQL_URL")
public class ForumService {
  private final ForumRepository repository;

  public ForumService(ForumRepository repository) {
    this.repository = repository;
  }

  public Optional<ForumViews.Comment> commentById(int id) {
    return repository.commentById(id);
  }

  public List<ForumViews.Comment> commentsByLimit(int limit) {
    return repository.commentsByLimit(limit);
  }

  /** The user's first comment with the user row; empty when the user does not exist or has none. */
  public Optional<ForumViews.CommentWithUser> firstCommentOfUser(int userId) {
    return repository.commentsOfUser(userId, 1).stream().findFirst();
  }

  /** The user's first `limit` comments; empty when the user does not exist. */
  public Optional<List<ForumViews.CommentWithUser>> commentsOfUser(int userId, int limit) {
    List<ForumViews.CommentWithUser> comments = repository.commentsOfUser(userId, limit);
    if (comments.isEmpty() && !repository.userExists(userId)) return Optional.empty();
    return Optional.of(comments);
  }
}
