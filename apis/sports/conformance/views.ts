// The API's JSON for seeded rows (spec/openapi.yaml, Sports… schemas): what the flows
// expect, exactly, computed from the seed rather than written by hand.
import type { AppUser, Facility, Field, Rating, Reservation, Tables } from '../dataset/model.ts';

export const publicUser = (u: AppUser) => ({ id: u.id, username: u.username, name: u.name, surname: u.surname, role: u.role });
export const facilityView = (f: Facility) => ({ id: f.id, name: f.name, city: f.city, address: f.address, ownerId: f.owner_id });
export const fieldView = (f: Field) => ({ id: f.id, facilityId: f.facility_id, name: f.name, sport: f.sport, pricePerHour: f.price_per_hour });
export const reservationView = (r: Reservation) => ({
  id: r.id,
  fieldId: r.field_id,
  userId: r.user_id,
  date: r.date,
  startHour: r.start_hour,
  endHour: r.end_hour,
  status: r.status,
});
export const ratingView = (r: Rating) => ({ reservationId: r.reservation_id, score: r.score, comment: r.comment });

export function facilityWithFields(t: Tables, f: Facility) {
  return { ...facilityView(f), fields: t.sports_field.filter((x) => x.facility_id === f.id).map(fieldView) };
}

export function listItem(t: Tables, r: Reservation) {
  const field = t.sports_field[r.field_id - 1]!;
  const facility = t.sports_facility[field.facility_id - 1]!;
  return { ...reservationView(r), fieldName: field.name, facilityId: facility.id, facilityName: facility.name };
}

/** The page `{items, page, size, total}` of `all` (already in id order). */
export function page<T>(all: readonly T[], pageNumber: number, size: number) {
  return { items: all.slice((pageNumber - 1) * size, pageNumber * size), page: pageNumber, size, total: all.length };
}

/** The reservations a caller sees in GET /sports/reservations: their own, or those of their facilities' fields. */
export function reservationsOf(t: Tables, user: AppUser): Reservation[] {
  if (user.role === 'user') return t.reservation.filter((r) => r.user_id === user.id);
  const facilities = new Set(t.sports_facility.filter((f) => f.owner_id === user.id).map((f) => f.id));
  return t.reservation.filter((r) => facilities.has(t.sports_field[r.field_id - 1]!.facility_id));
}

/** The owner of a reservation's field. */
export function ownerOf(t: Tables, r: Reservation): number {
  return t.sports_facility[t.sports_field[r.field_id - 1]!.facility_id - 1]!.owner_id;
}
