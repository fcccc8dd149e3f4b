package dev.fairbench.spring.users;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.mongodb.ErrorCategory;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.fairbench.spring.config.MongoUnavailable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.ObjectId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.stereotype.Repository;

/**
 * The `users` collection (the paper's Table 1: password = the bcrypt hash, salt = its salt)
 * through the MongoDB Java driver; the harness creates it and its unique index on username.
 * Every read projects away password and salt except the login lookup, and every user leaves
 * through {@link User#of} (a whitelist). A database that does not answer (in time) becomes
 * Spring's DataAccessResourceFailureException here, so the web layer and the security filter
 * chain (which loads the caller before any controller) both answer it with a 503.
 */
@Repository
@ConditionalOnProperty(name = "MONGO_URL")
public class UsersRepository {
  private static final Bson PUBLIC = Projections.include("name", "surname", "email", "username", "role");

  /** The API's User: never password or salt; no email member when there is none. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"id", "name", "surname", "username", "role", "email"})
  public record User(String id, String name, String surname, String username, String role, String email) {
    static User of(Document doc) {
      Object email = doc.get("email");
      return new User(doc.getObjectId("_id").toHexString(), doc.getString("name"), doc.getString("surname"), doc.getString("username"), doc.getString("role"),
          email instanceof String s ? s : null);
    }

    @JsonIgnore
    public boolean isAdmin() {
      return "admin".equals(role);
    }
  }

  /** A user and their stored hash, for login only. */
  public record Credentials(User user, String hash) {}

  /** The username is taken (the unique index said so). */
  public static class UsernameTaken extends RuntimeException {
    UsernameTaken(String username) {
      super(username, null, false, false);
    }
  }

  private final MongoCollection<Document> users;

  public UsersRepository(MongoDatabase database) {
    this.users = database.getCollection("users");
  }

  private static <T> T call(Supplier<T> operation) {
    try {
      return operation.get();
    } catch (MongoException e) {
      if (MongoUnavailable.is(e)) throw new DataAccessResourceFailureException("the database did not answer: " + e.getMessage(), e);
      throw e;
    }
  }

  /** The first `limit` users by id. */
  public List<User> list(int limit) {
    return call(() -> users.find().projection(PUBLIC).sort(Sorts.ascending("_id")).limit(limit).map(User::of).into(new ArrayList<>()));
  }

  public Optional<User> byId(ObjectId id) {
    return call(() -> Optional.ofNullable(users.find(Filters.eq("_id", id)).projection(PUBLIC).first()).map(User::of));
  }

  public Optional<Credentials> credentials(String username) {
    return call(() -> Optional.ofNullable(users.find(Filters.eq("username", username)).projection(Projections.include("name", "surname", "email", "username", "role", "password")).first())
        .map(doc -> new Credentials(User.of(doc), doc.getString("password"))));
  }

  /** Inserts a user (the role is the caller's choice, never the client's); UsernameTaken on a duplicate. */
  public User create(String name, String surname, String username, String email, String hash, String salt, String role) {
    Document doc = new Document("_id", new ObjectId()).append("name", name).append("surname", surname);
    if (email != null) doc.append("email", email);
    doc.append("username", username).append("password", hash).append("salt", salt).append("role", role);
    return call(() -> {
      try {
        users.insertOne(doc);
      } catch (MongoWriteException e) {
        // The unique index decides (no read-then-insert race): E11000 duplicate key.
        if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) throw new UsernameTaken(username);
        throw e;
      }
      return User.of(doc);
    });
  }

  /** The user after setting `changes` (name and/or surname), or empty when there is none. */
  public Optional<User> update(ObjectId id, Document changes) {
    List<Bson> sets = new ArrayList<>();
    changes.forEach((field, value) -> sets.add(Updates.set(field, value)));
    // No projection: FerretDB 1.24 answers findAndModify with `fields` "not implemented yet"; User.of drops password and salt.
    return call(() -> Optional.ofNullable(users.findOneAndUpdate(Filters.eq("_id", id), Updates.combine(sets), new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER))).map(User::of));
  }

  /** Whether a user was deleted. */
  public boolean delete(ObjectId id) {
    return call(() -> users.deleteOne(Filters.eq("_id", id)).getDeletedCount() == 1);
  }
}
