// The sports API's inputs as Elysia (TypeBox) schemas, from spec/openapi.yaml (SportsRegistration,
// LoginRequest, SportsFieldInput, SportsReservationInput, SportsStatusInput, SportsRatingInput,
// SportsId, SportsPageNumber, SportsPageSize): closed objects, so a `role` in a sign-up (or any
// other unknown member) is a 400 and never reaches the database (no mass assignment); integers
// are t.Number({ multipleOf: 1 }) (t.Integer would take "5"); strings are stored as given. The
// rest of the booking rule, which JSON Schema cannot state, is reservationRuleBroken.
import { t, type Static } from 'elysia';
import { PASSWORD_MAX_BYTES } from '../users/schemas.ts';

export const SPORTS = ['tennis', 'padel', 'football', 'basketball', 'volleyball'] as const;
export const STATUSES = ['pending', 'accepted', 'refused'] as const;
export type Sport = (typeof SPORTS)[number];
export type Status = (typeof STATUSES)[number];

const closed = { additionalProperties: false } as const;
// One of a list of strings. Not t.UnionEnum: Elysia gives it its first value as a default, which
// fills a missing member (a body without `status` would accept, a list without `sport` filter).
const oneOf = <const T extends readonly string[]>(values: T) => t.Union(values.map((value) => t.Literal(value)) as { [K in keyof T]: ReturnType<typeof t.Literal<T[K]>> });
const integer = (minimum: number, maximum: number) => t.Number({ minimum, maximum, multipleOf: 1 });
const id = integer(1, 2_147_483_647);
// Lengths are code points, as JSON Schema counts them (TypeBox's minLength/maxLength count
// UTF-16 units, so 100 emoji would be 200): t.RegExp with the u flag. Free text is PostgreSQL
// text, which cannot hold U+0000 (spec/README.md, sports rule 12).
const chars = (min: number, max: number) => t.RegExp(new RegExp(`^[\\s\\S]{${min},${max}}$`, 'u'));
const text = (max: number) => t.RegExp(new RegExp(`^[^\\u0000]{1,${max}}$`, 'u'));

export const registration = t.Object(
  {
    username: t.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    // Characters here; the 72 UTF-8 bytes bcrypt reads in the handler (passwordFits).
    password: chars(6, PASSWORD_MAX_BYTES),
    name: text(100),
    surname: text(100),
  },
  closed,
);

export const credentials = t.Object({ username: chars(1, 64), password: chars(1, PASSWORD_MAX_BYTES) }, closed);

export const fieldInput = t.Object({ name: text(100), sport: oneOf(SPORTS), pricePerHour: integer(1, 1000) }, closed);

export const reservationInput = t.Object(
  { fieldId: id, date: t.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }), startHour: integer(6, 22), endHour: integer(7, 23) },
  closed,
);

export const statusInput = t.Object({ status: oneOf(['accepted', 'refused'] as const) }, closed);

export const ratingInput = t.Object({ score: integer(1, 5), comment: t.Optional(text(500)) }, closed);

/** A path id: 1..2147483647 in canonical decimal form (no sign, no leading zero, no exponent). */
export const ID = /^(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])$/;
export const idParams = t.Object({ id: t.String({ pattern: ID.source }) }, closed);

// page 1..100000 and size 1..100, canonical decimals; absent: 1 and 20.
const paging = {
  page: t.Optional(t.String({ pattern: '^(?:[1-9][0-9]{0,4}|100000)$' })),
  size: t.Optional(t.String({ pattern: '^(?:[1-9][0-9]?|100)$' })),
};
// Other query parameters are ignored, as by the other implementations (with normalize off,
// Elysia would refuse them).
const open = { additionalProperties: true } as const;
export const pageQuery = t.Object(paging, open);
export const fieldsQuery = t.Object({ ...paging, sport: t.Optional(oneOf(SPORTS)) }, open);
export const reservationsQuery = t.Object({ ...paging, status: t.Optional(oneOf(STATUSES)) }, open);

export interface Paging {
  readonly page: number;
  readonly size: number;
}
export const pagingOf = (query: { page?: string; size?: string }): Paging => ({ page: Number(query.page ?? 1), size: Number(query.size ?? 20) });

export type Registration = Static<typeof registration>;
export type Credentials = Static<typeof credentials>;
export type FieldInput = Static<typeof fieldInput>;
export type ReservationInput = Static<typeof reservationInput>;
export type StatusInput = Static<typeof statusInput>;
export type RatingInput = Static<typeof ratingInput>;

/** The rules JSON Schema cannot say: a real calendar date from today (UTC) to 2099-12-31, and 1 to 4 hours; null when they hold. */
export function reservationRuleBroken({ date, startHour, endHour }: ReservationInput, today = new Date().toISOString().slice(0, 10)): string | null {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) return `date: ${date} is not a calendar date`;
  if (date < today) return `date: ${date} is in the past`;
  if (date > '2099-12-31') return 'date: reservations end with 2099-12-31';
  if (endHour <= startHour) return 'endHour: must be after startHour';
  if (endHour - startHour > 4) return 'endHour: a reservation is at most 4 hours';
  return null;
}

/** The API's SportsUser: never the password hash. */
export interface SportsUser {
  readonly id: number;
  readonly username: string;
  readonly name: string;
  readonly surname: string;
  readonly role: 'user' | 'owner';
}
