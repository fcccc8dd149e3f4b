package dev.fairbench.spring.sports;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Data access for the sports API: parameterised SQL through JdbcClient on the Hikari pool.
 * The booking rule and one rating per reservation are the database's constraints; their
 * violations (SQLSTATE 23P01, 23505) come back as Overlap and Taken.
 */
@Repository
@ConditionalOnProperty(name = "POSTGRES_URL")
public class SportsRepository {
  public static class Taken extends RuntimeException {
    Taken() {
      super(null, null, false, false);
    }
  }

  public static class Overlap extends RuntimeException {
    Overlap() {
      super(null, null, false, false);
    }
  }

  /** A user and the stored hash, for login. */
  public record Credentials(Views.User user, String hash) {}

  private static final String USER = "id, username, name, surname, role";
  private static final String FIELD = "id, facility_id, name, sport, price_per_hour";
  private static final String RESERVATION = "r.id, r.field_id, r.user_id, r.date::text AS date, r.start_hour, r.end_hour, r.status";
  private static final String JOINED = "FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id";

  private static final RowMapper<Views.User> USER_ROW = (rs, i) -> new Views.User(rs.getInt("id"), rs.getString("username"), rs.getString("name"), rs.getString("surname"), rs.getString("role"));
  private static final RowMapper<Views.Facility> FACILITY_ROW = (rs, i) -> new Views.Facility(rs.getInt("id"), rs.getString("name"), rs.getString("city"), rs.getString("address"), rs.getInt("owner_id"));
  private static final RowMapper<Views.Field> FIELD_ROW = (rs, i) -> new Views.Field(rs.getInt("id"), rs.getInt("facility_id"), rs.getString("name"), rs.getString("sport"), rs.getInt("price_per_hour"));
  private static final RowMapper<Views.Reservation> RESERVATION_ROW = (rs, i) ->
      new Views.Reservation(rs.getInt("id"), rs.getInt("field_id"), rs.getInt("user_id"), rs.getString("date"), rs.getInt("start_hour"), rs.getInt("end_hour"), rs.getString("status"));
  private static final RowMapper<Views.ReservationListItem> LIST_ITEM_ROW = (rs, i) ->
      new Views.ReservationListItem(rs.getInt("id"), rs.getInt("field_id"), rs.getInt("user_id"), rs.getString("date"), rs.getInt("start_hour"), rs.getInt("end_hour"), rs.getString("status"),
          rs.getString("field_name"), rs.getInt("facility_id"), rs.getString("facility_name"));
  private static final RowMapper<Views.Rating> RATING_ROW = (rs, i) -> new Views.Rating(rs.getInt("reservation_id"), rs.getInt("score"), rs.getString("comment"));

  private final JdbcClient db;

  public SportsRepository(JdbcClient db) {
    this.db = db;
  }

  public Optional<Views.User> userById(int id) {
    return db.sql("SELECT " + USER + " FROM app_user WHERE id = ?").param(id).query(USER_ROW).optional();
  }

  public Optional<Credentials> credentials(String username) {
    return db.sql("SELECT " + USER + ", password_hash FROM app_user WHERE username = ?").param(username)
        .query((rs, i) -> new Credentials(USER_ROW.mapRow(rs, i), rs.getString("password_hash"))).optional();
  }

  public Views.User createUser(String username, String hash, String name, String surname) {
    return unique(() -> db.sql("INSERT INTO app_user (username, password_hash, name, surname, role) VALUES (?, ?, ?, ?, 'user') RETURNING " + USER)
        .params(username, hash, name, surname).query(USER_ROW).single());
  }

  public Views.Page<Views.Facility> facilities(int page, int size) {
    List<Views.Facility> items = db.sql("SELECT id, name, city, address, owner_id FROM sports_facility ORDER BY id LIMIT ? OFFSET ?")
        .params(size, (long) (page - 1) * size).query(FACILITY_ROW).list();
    long total = db.sql("SELECT COUNT(*) FROM sports_facility").query(Long.class).single();
    return new Views.Page<>(items, page, size, total);
  }

  public Optional<Views.Facility> facilityById(int id) {
    return db.sql("SELECT id, name, city, address, owner_id FROM sports_facility WHERE id = ?").param(id).query(FACILITY_ROW).optional();
  }

  public List<Views.Field> fieldsOf(int facilityId) {
    return db.sql("SELECT " + FIELD + " FROM sports_field WHERE facility_id = ? ORDER BY id").param(facilityId).query(FIELD_ROW).list();
  }

  public Views.Field createField(int facilityId, Bodies.NewField body) {
    return unique(() -> db.sql("INSERT INTO sports_field (facility_id, name, sport, price_per_hour) VALUES (?, ?, ?, ?) RETURNING " + FIELD)
        .params(facilityId, body.name(), body.sport(), body.pricePerHour()).query(FIELD_ROW).single());
  }

  public Views.Page<Views.Field> fields(int page, int size, String sport) {
    String where = sport == null ? "" : " WHERE sport = :sport";
    List<Views.Field> items = db.sql("SELECT " + FIELD + " FROM sports_field" + where + " ORDER BY id LIMIT :size OFFSET :offset")
        .param("sport", sport).param("size", size).param("offset", (long) (page - 1) * size).query(FIELD_ROW).list();
    long total = db.sql("SELECT COUNT(*) FROM sports_field" + where).param("sport", sport).query(Long.class).single();
    return new Views.Page<>(items, page, size, total);
  }

  public Optional<Views.Field> fieldById(int id) {
    return db.sql("SELECT " + FIELD + " FROM sports_field WHERE id = ?").param(id).query(FIELD_ROW).optional();
  }

  /** The caller's reservations (a user's own, an owner's fields'), with field and facility names, in one joined query. */
  public Views.Page<Views.ReservationListItem> reservations(Views.User caller, int page, int size, String status) {
    String where = ("owner".equals(caller.role()) ? "fa.owner_id = :caller" : "r.user_id = :caller") + (status == null ? "" : " AND r.status = :status");
    List<Views.ReservationListItem> items = db.sql("SELECT " + RESERVATION + ", f.name AS field_name, fa.id AS facility_id, fa.name AS facility_name " + JOINED + " WHERE " + where + " ORDER BY r.id LIMIT :size OFFSET :offset")
        .param("caller", caller.id()).param("status", status).param("size", size).param("offset", (long) (page - 1) * size).query(LIST_ITEM_ROW).list();
    long total = db.sql("SELECT COUNT(*) " + JOINED + " WHERE " + where).param("caller", caller.id()).param("status", status).query(Long.class).single();
    return new Views.Page<>(items, page, size, total);
  }

  public Optional<Views.OwnedReservation> reservationById(int id) {
    return db.sql("SELECT " + RESERVATION + ", fa.owner_id " + JOINED + " WHERE r.id = ?").param(id)
        .query((rs, i) -> new Views.OwnedReservation(RESERVATION_ROW.mapRow(rs, i), rs.getInt("owner_id"))).optional();
  }

  public Views.Reservation createReservation(int userId, Bodies.NewReservation body) {
    try {
      // Two concurrent inserts of overlapping slots can each wait for the other's exclusion check:
      // PostgreSQL then aborts one with a deadlock (40P01, a 500) after deadlock_timeout. A
      // transaction-scoped advisory lock on (field, date), taken in the same statement before the
      // row, makes the inserts of one field and day take turns, so the loser gets 23P01 (a 409).
      return db.sql("WITH slot AS (SELECT pg_advisory_xact_lock(?, ?::date - DATE '2000-01-01')) "
              + "INSERT INTO reservation AS r (field_id, user_id, date, start_hour, end_hour) SELECT ?, ?, ?::date, ?::smallint, ?::smallint FROM slot RETURNING " + RESERVATION)
          .params(body.fieldId(), body.date(), body.fieldId(), userId, body.date(), body.startHour(), body.endHour()).query(RESERVATION_ROW).single();
    } catch (DataIntegrityViolationException e) {
      if ("23P01".equals(sqlState(e))) throw new Overlap();
      throw e;
    }
  }

  /** Decides a pending reservation; empty when it is no longer pending (decisions are final). */
  public Optional<Views.Reservation> decide(int id, String status) {
    return db.sql("UPDATE reservation AS r SET status = ? WHERE r.id = ? AND r.status = 'pending' RETURNING " + RESERVATION).params(status, id).query(RESERVATION_ROW).optional();
  }

  public Optional<Views.Rating> ratingOf(int reservationId) {
    return db.sql("SELECT reservation_id, score, comment FROM rating WHERE reservation_id = ?").param(reservationId).query(RATING_ROW).optional();
  }

  public Views.Rating createRating(int reservationId, Bodies.NewRating body) {
    return unique(() -> db.sql("INSERT INTO rating (reservation_id, score, comment) VALUES (?, ?, ?) RETURNING reservation_id, score, comment")
        .params(reservationId, body.score(), body.comment()).query(RATING_ROW).single());
  }

  private static <T> T unique(java.util.function.Supplier<T> insert) {
    try {
      return insert.get();
    } catch (DataIntegrityViolationException e) {
      if ("23505".equals(sqlState(e))) throw new Taken();
      throw e;
    }
  }

  private static String sqlState(Exception e) {
    Throwable cause = NestedExceptionUtils.getMostSpecificCause(e);
    return cause instanceof SQLException sql ? sql.getSQLState() : null;
  }
}
