package dev.fairbench.spring.sports;

import java.util.List;

/** The API's answers (spec/openapi.yaml: SportsUser, SportsFacility, SportsField, SportsReservation, SportsRating, the pages). */
public final class Views {
  private Views() {}

  public record User(int id, String username, String name, String surname, String role) {}

  public record Facility(int id, String name, String city, String address, int ownerId) {}

  public record FacilityWithFields(int id, String name, String city, String address, int ownerId, List<Field> fields) {}

  public record Field(int id, int facilityId, String name, String sport, int pricePerHour) {}

  public record Reservation(int id, int fieldId, int userId, String date, int startHour, int endHour, String status) {}

  public record ReservationListItem(int id, int fieldId, int userId, String date, int startHour, int endHour, String status, String fieldName, int facilityId, String facilityName) {}

  /** A reservation with its field's owner, for permission checks (never answered as is). */
  public record OwnedReservation(Reservation reservation, int ownerId) {}

  public record Rating(int reservationId, int score, String comment) {}

  public record Page<T>(List<T> items, int page, int size, long total) {}
}
