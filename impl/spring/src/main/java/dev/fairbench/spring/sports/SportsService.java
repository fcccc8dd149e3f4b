package dev.fairbench.spring.sports;

import dev.fairbench.spring.web.Problem.Kind;
import dev.fairbench.spring.web.ProblemException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;

/**
 * The sports API's rules between the controller and the repository: existence (404),
 * permission (403), the booking rule's date and slot checks (400), and the state checks
 * (409), in the order spec/README.md fixes. The controller reads a body only after the
 * checks that come before it (see the *Allowed methods).
 */
@Service
@ConditionalOnProperty(name = "POSTGRES_URL")
public class SportsService {
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);
  private static final LocalDate LAST_DAY = LocalDate.of(2099, 12, 31);

  private final SportsRepository repository;
  private final PasswordEncoder passwords;
  /** Compared against for an unknown username: the same bcrypt work as a wrong password. */
  private final String noUserHash;

  public SportsService(SportsRepository repository, PasswordEncoder passwords) {
    this.repository = repository;
    this.passwords = passwords;
    this.noUserHash = passwords.encode("no such user");
  }

  private static ProblemException problem(Kind kind, String detail) {
    return new ProblemException(kind, detail);
  }

  /** The user whose password matches, or a 401 (the same for an unknown user). */
  public Views.User login(Bodies.Login body) {
    // No username holds U+0000, and PostgreSQL text cannot even be compared with one.
    Optional<SportsRepository.Credentials> found = body.username().indexOf('\0') >= 0 ? Optional.empty() : repository.credentials(body.username());
    boolean matches = passwords.matches(body.password(), found.map(SportsRepository.Credentials::hash).orElse(noUserHash));
    if (found.isEmpty() || !matches) throw problem(Kind.UNAUTHORIZED, "username or password is wrong");
    return found.get().user();
  }

  public Views.User register(Bodies.Registration body) {
    try {
      return repository.createUser(body.username(), passwords.encode(body.password()), body.name(), body.surname());
    } catch (SportsRepository.Taken e) {
      throw problem(Kind.CONFLICT, "username " + body.username() + " is taken");
    }
  }

  public Views.User user(int id) {
    return repository.userById(id).orElseThrow(() -> problem(Kind.NOT_FOUND, "no user with that id"));
  }

  public Views.Page<Views.Facility> facilities(int page, int size) {
    return repository.facilities(page, size);
  }

  public Views.Page<Views.Field> fields(int page, int size, String sport) {
    return repository.fields(page, size, sport);
  }

  public Views.Page<Views.ReservationListItem> reservations(Views.User caller, int page, int size, String status) {
    return repository.reservations(caller, page, size, status);
  }

  public Views.FacilityWithFields facility(int id) {
    Views.Facility f = repository.facilityById(id).orElseThrow(() -> problem(Kind.NOT_FOUND, "no facility with that id"));
    return new Views.FacilityWithFields(f.id(), f.name(), f.city(), f.address(), f.ownerId(), repository.fieldsOf(id));
  }

  /** Before the body of POST …/sports-field: the facility exists (404) and is the caller's (403). */
  public void fieldCreationAllowed(Views.User caller, int facilityId) {
    Views.Facility f = repository.facilityById(facilityId).orElseThrow(() -> problem(Kind.NOT_FOUND, "no facility with that id"));
    if (f.ownerId() != caller.id()) throw problem(Kind.FORBIDDEN, "only the facility's owner may add fields to it");
  }

  public Views.Field createField(int facilityId, Bodies.NewField body) {
    try {
      return repository.createField(facilityId, body);
    } catch (SportsRepository.Taken e) {
      throw problem(Kind.CONFLICT, "the facility already has a field named " + body.name());
    }
  }

  public Views.Field field(int id) {
    return repository.fieldById(id).orElseThrow(() -> problem(Kind.NOT_FOUND, "no field with that id"));
  }

  /** Before the body of POST /sports/reservations: users only (403). */
  public void reservingAllowed(Views.User caller) {
    if (!"user".equals(caller.role())) throw problem(Kind.FORBIDDEN, "only users reserve fields");
  }

  public Views.Reservation reserve(Views.User caller, Bodies.NewReservation body) {
    LocalDate date;
    try {
      date = LocalDate.parse(body.date(), DATE);
    } catch (DateTimeParseException e) {
      throw problem(Kind.INVALID_BODY, body.date() + " is not a calendar date");
    }
    if (date.isBefore(LocalDate.now(ZoneOffset.UTC))) throw problem(Kind.INVALID_BODY, body.date() + " is in the past");
    if (date.isAfter(LAST_DAY)) throw problem(Kind.INVALID_BODY, "reservations end with 2099-12-31");
    if (body.endHour() <= body.startHour()) throw problem(Kind.INVALID_BODY, "endHour must be after startHour");
    if (body.endHour() - body.startHour() > 4) throw problem(Kind.INVALID_BODY, "a reservation is at most 4 hours");
    if (repository.fieldById(body.fieldId()).isEmpty()) throw problem(Kind.NOT_FOUND, "no field with that id");
    try {
      return repository.createReservation(caller.id(), body);
    } catch (SportsRepository.Overlap e) {
      throw problem(Kind.CONFLICT, "the field is already reserved for an overlapping slot");
    }
  }

  /** The reservation (404) with its owner. */
  public Views.OwnedReservation reservation(int id) {
    return repository.reservationById(id).orElseThrow(() -> problem(Kind.NOT_FOUND, "no reservation with that id"));
  }

  /** Its user and its field's owner may read a reservation and its rating (403 otherwise). */
  public Views.OwnedReservation readable(Views.User caller, int id) {
    Views.OwnedReservation r = reservation(id);
    if (caller.id() != r.reservation().userId() && caller.id() != r.ownerId()) throw problem(Kind.FORBIDDEN, "only the reservation's user or its facility's owner may read it");
    return r;
  }

  /** Before the body of PUT …/status: the field's owner only (403). */
  public void decisionAllowed(Views.User caller, int id) {
    if (reservation(id).ownerId() != caller.id()) throw problem(Kind.FORBIDDEN, "only the facility's owner accepts or refuses its reservations");
  }

  public Views.Reservation decide(int id, Bodies.Decision body) {
    return repository.decide(id, body.status()).orElseThrow(() -> problem(Kind.CONFLICT, "the reservation was already decided"));
  }

  public Views.Rating rating(Views.User caller, int id) {
    readable(caller, id);
    return repository.ratingOf(id).orElseThrow(() -> problem(Kind.NOT_FOUND, "the reservation has no rating"));
  }

  /** Before the body of POST …/rating: the reserving user only (403). */
  public Views.OwnedReservation ratingAllowed(Views.User caller, int id) {
    Views.OwnedReservation r = reservation(id);
    if (r.reservation().userId() != caller.id()) throw problem(Kind.FORBIDDEN, "only the user who made the reservation rates it");
    return r;
  }

  public Views.Rating rate(Views.OwnedReservation r, Bodies.NewRating body) {
    if (!"accepted".equals(r.reservation().status())) throw problem(Kind.CONFLICT, "only an accepted reservation can be rated");
    try {
      return repository.createRating(r.reservation().id(), body);
    } catch (SportsRepository.Taken e) {
      throw problem(Kind.CONFLICT, "the reservation is already rated");
    }
  }
}
