package dev.fairbench.spring.users;

import dev.fairbench.spring.web.Problem.Kind;
import dev.fairbench.spring.web.ProblemException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;

/** The users API's rules (spec/README.md, users): ids, permissions, bcrypt, existence. */
@Service
@ConditionalOnProperty(name = "MONGO_URL")
public class UsersService {
  static final Pattern OBJECT_ID = Pattern.compile("[0-9a-f]{24}");
  /** A bcrypt hash starts with its salt: $2a$10$ and 22 characters. */
  private static final int SALT_LENGTH = 29;

  private final UsersRepository repository;
  private final PasswordEncoder passwords;
  /** Compared against for an unknown username: the same bcrypt work as a wrong password (no enumeration by timing). */
  private final String noUserHash;

  public UsersService(UsersRepository repository, PasswordEncoder passwords) {
    this.repository = repository;
    this.passwords = passwords;
    this.noUserHash = passwords.encode("no such user");
  }

  /** A path id: 24 lowercase hex digits only (new ObjectId(…) also takes upper case), else a 400. */
  public static ObjectId id(String raw) {
    if (!OBJECT_ID.matcher(raw).matches()) throw new ProblemException(Kind.INVALID_PARAMETER, "id must be a user id (24 lowercase hexadecimal digits)");
    return new ObjectId(raw);
  }

  private static ProblemException notFound(ObjectId id) {
    return new ProblemException(Kind.NOT_FOUND, "no user with id " + id.toHexString());
  }

  public List<UsersRepository.User> list(int limit) {
    return repository.list(limit);
  }

  public UsersRepository.User get(ObjectId id) {
    return repository.byId(id).orElseThrow(() -> notFound(id));
  }

  /** A new user with the role `user`; a taken username is a 409. */
  public UsersRepository.User register(UsersBodies.Registration body) {
    String hash = passwords.encode(body.password());
    try {
      return repository.create(body.name(), body.surname(), body.username(), body.email(), hash, hash.substring(0, SALT_LENGTH), "user");
    } catch (UsersRepository.UsernameTaken e) {
      throw new ProblemException(Kind.CONFLICT, "username " + body.username() + " is taken");
    }
  }

  /** The user whose password matches, or a 401 (the same body for an unknown user). */
  public UsersRepository.User login(UsersBodies.Login body) {
    Optional<UsersRepository.Credentials> found = repository.credentials(body.username());
    boolean matches = passwords.matches(body.password(), found.map(UsersRepository.Credentials::hash).orElse(noUserHash));
    if (found.isEmpty() || !matches) throw new ProblemException(Kind.UNAUTHORIZED, "username or password is wrong");
    return found.get().user();
  }

  /** Before the body of PUT/DELETE /users/{id}: themself or an admin, also for ids that do not exist (403). */
  public void mayChange(UsersRepository.User caller, ObjectId id) {
    if (!caller.id().equals(id.toHexString()) && !caller.isAdmin()) throw new ProblemException(Kind.FORBIDDEN, "only the user themself or an admin may do this");
  }

  public UsersRepository.User update(ObjectId id, UsersBodies.Update body) {
    Document changes = new Document();
    if (body.name() != null) changes.append("name", body.name());
    if (body.surname() != null) changes.append("surname", body.surname());
    return repository.update(id, changes).orElseThrow(() -> notFound(id));
  }

  public void delete(ObjectId id) {
    if (!repository.delete(id)) throw notFound(id);
  }
}
