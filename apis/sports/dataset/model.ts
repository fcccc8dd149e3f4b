// Row types of the five sports tables (schema.sql beside this file), in column order: the
// loader inserts Object.keys of a row as the column list. Dates are 'YYYY-MM-DD'.
import type { Scale } from '@fairbench/harness/api/dataset.ts';

export type Role = 'user' | 'owner';
export type Sport = 'tennis' | 'padel' | 'football' | 'basketball' | 'volleyball';
export type Status = 'pending' | 'accepted' | 'refused';

export const SPORTS: readonly Sport[] = ['tennis', 'padel', 'football', 'basketball', 'volleyball'];

export interface AppUser {
  id: number;
  username: string;
  password_hash: string;
  name: string;
  surname: string;
  role: Role;
}

export interface Facility {
  id: number;
  owner_id: number;
  name: string;
  city: string;
  address: string;
}

export interface Field {
  id: number;
  facility_id: number;
  name: string;
  sport: Sport;
  price_per_hour: number;
}

export interface Reservation {
  id: number;
  field_id: number;
  user_id: number;
  date: string;
  start_hour: number;
  end_hour: number;
  status: Status;
}

export interface Rating {
  reservation_id: number;
  score: number;
  comment: string | null;
}

export interface Tables {
  app_user: AppUser[];
  sports_facility: Facility[];
  sports_field: Field[];
  reservation: Reservation[];
  rating: Rating[];
}

export type TableName = keyof Tables;
/** Loading order (references point backwards). */
export const TABLES: readonly TableName[] = ['app_user', 'sports_facility', 'sports_field', 'reservation', 'rating'];

export interface SportsScale extends Scale {
  readonly owners: number;
  readonly users: number;
  readonly facilitiesPerOwner: number;
  readonly fieldsPerFacility: number;
  /** Past reservations (dates in SEED_YEAR), each field's slots filled in order. */
  readonly reservations: number;
}

export interface SportsDataset {
  readonly scale: SportsScale;
  readonly tables: Tables;
  /** Each seeded account's plain password, by user id: clients log in with it. */
  readonly passwords: ReadonlyMap<number, string>;
}

/** Small: every case's data fits on one screen, and a reset reloads it in milliseconds. */
export const CONFORMANCE_SCALE: SportsScale = { seed: 1, owners: 3, users: 6, facilitiesPerOwner: 2, fieldsPerFacility: 3, reservations: 24 };

/** The load test's data: 50 clubs' owners, 1,000 users, 100 facilities, 400 fields, 5,000 past reservations. */
export const PAPER_SCALE: SportsScale = { seed: 1, owners: 50, users: 1000, facilitiesPerOwner: 2, fieldsPerFacility: 4, reservations: 5000 };

/** bcrypt cost factor of every stored password (seed and implementations). */
export const BCRYPT_COST = 10;

/** Seeded reservations are in this year: past for any run, so no seeded slot collides with a new reservation. */
export const SEED_YEAR = 2025;
