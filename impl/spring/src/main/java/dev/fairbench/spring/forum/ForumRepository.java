package dev.fairbench.spring.forum;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The forum's four reads and the user-exists check, one statement each, through JdbcClient on
 * the MySQL pool (config/MysqlDataSourceConfig, shared with tpcc: MYSQL_URL names one
 * database). Statements are server-side prepared (the pool's useServerPrepStmts) and every
 * value is bound. The joins read the user row in the same statement, so a list of comments
 * with their users is one query, not one per row.
 */
@Repository
@ConditionalOnProperty(name = "MYSQL_URL")
public class ForumRepository {
  private static final String COMMENT_COLUMNS = "comment_id, thread_id, user_id, body, datemade, datelastupdated";
  private static final String JOIN = """
      SELECT c.comment_id, c.thread_id, c.user_id, c.body, c.datemade, c.datelastupdated,
        u.user_id AS u_user_id, u.name AS u_name, u.email AS u_email, u.phone AS u_phone,
        u.datemade AS u_datemade, u.datelastupdated AS u_datelastupdated
      FROM comment c JOIN `user` u ON u.user_id = c.user_id
      WHERE c.user_id = ? ORDER BY c.comment_id LIMIT ?""";

  /** A DATE as "YYYY-MM-DD" (read as a LocalDate: no time zone is involved), or null. */
  private static String date(ResultSet rs, String column) throws SQLException {
    LocalDate value = rs.getObject(column, LocalDate.class);
    return value == null ? null : value.toString();
  }

  private static final RowMapper<ForumViews.Comment> COMMENT = (rs, i) -> new ForumViews.Comment(rs.getInt("comment_id"), rs.getInt("thread_id"),
      rs.getInt("user_id"), rs.getString("body"), date(rs, "datemade"), date(rs, "datelastupdated"));

  private static final RowMapper<ForumViews.CommentWithUser> COMMENT_WITH_USER = (rs, i) -> new ForumViews.CommentWithUser(rs.getInt("comment_id"),
      rs.getInt("thread_id"), rs.getInt("user_id"), rs.getString("body"), date(rs, "datemade"), date(rs, "datelastupdated"),
      new ForumViews.User(rs.getInt("u_user_id"), rs.getString("u_name"), rs.getString("u_email"), rs.getString("u_phone"),
          date(rs, "u_datemade"), date(rs, "u_datelastupdated")));

  private final JdbcClient db;

  public ForumRepository(@Qualifier("mysql") JdbcClient db) {
    this.db = db;
  }

  public Optional<ForumViews.Comment> commentById(int id) {
    return db.sql("SELECT " + COMMENT_COLUMNS + " FROM comment WHERE comment_id = ?").param(id).query(COMMENT).optional();
  }

  /** The first `limit` comments by comment_id. */
  public List<ForumViews.Comment> commentsByLimit(int limit) {
    return db.sql("SELECT " + COMMENT_COLUMNS + " FROM comment ORDER BY comment_id LIMIT ?").param(limit).query(COMMENT).list();
  }

  /** The user's first `limit` comments by comment_id, each with its user row ([] when none). */
  public List<ForumViews.CommentWithUser> commentsOfUser(int userId, int limit) {
    return db.sql(JOIN).param(userId).param(limit).query(COMMENT_WITH_USER).list();
  }

  public boolean userExists(int userId) {
    return db.sql("SELECT 1 FROM `user` WHERE user_id = ?").param(userId).query(Integer.class).optional().isPresent();
  }
}
