// Handlers of the sports API: the checks in the order spec/README.md fixes (token, path id,
// existence, permission, body, state), the data layer's calls and answers. Refusals are
// problems; a database that did not answer in time is a 503. The token is checked by the
// routes (auth.ts); bodies, queries and ids are TypeBox-validated there, the password's UTF-8
// bytes and the booking rule's calendar here (JSON Schema cannot state them).
import { postgresUnavailable } from '../postgres.ts';
import { PROBLEMS, ProblemError } from '../problem.ts';
import { forbidden, unauthorized } from '../users/auth.ts';
import { PASSWORD_MAX_BYTES, passwordFits } from '../users/schemas.ts';
import { Overlap, Taken, type Facility, type OwnedReservation, type SportsData } from './data.ts';
import { ID, reservationRuleBroken, type Credentials, type FieldInput, type Paging, type RatingInput, type Registration, type ReservationInput, type Sport, type SportsUser, type Status } from './schemas.ts';

/** bcrypt at cost 10, as the seed's hashes (spec/README.md, sports rule 9); Bun's own bcrypt. */
export const BCRYPT = { algorithm: 'bcrypt', cost: 10 } as const;
const BAD_CREDENTIALS = 'username or password is wrong';

/** Runs a data call; a database that did not answer in time is a 503. */
async function answer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (postgresUnavailable(err)) throw new ProblemError(PROBLEMS.unavailable, 'the database did not answer in time; retry later', { 'retry-after': '1' });
    throw err;
  }
}

const conflict = (detail: string) => new ProblemError(PROBLEMS.conflict, detail);

function found<T>(what: string, value: T | null): T {
  if (value === null) throw new ProblemError(PROBLEMS.notFound, `no ${what} with that id`);
  return value;
}

/** A path id (the route's schema checks it too, but the checks before a body run ahead of validation). */
export function pathId(raw: string | undefined): number {
  if (raw === undefined || !ID.test(raw)) throw new ProblemError(PROBLEMS.invalidParameter, 'id must be an integer from 1 to 2147483647');
  return Number(raw);
}

function checkPassword(password: string) {
  if (!passwordFits(password)) throw new ProblemError(PROBLEMS.invalidBody, `password: must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8`);
}

const mayRead = (caller: SportsUser, r: OwnedReservation) => caller.id === r.userId || caller.id === r.ownerId;
const withoutOwner = ({ ownerId: _ownerId, ...r }: OwnedReservation) => r;

export type SportsHandlers = ReturnType<typeof createSportsHandlers>;

export function createSportsHandlers(data: SportsData) {
  // Compared against for an unknown username: the same bcrypt work as a wrong password.
  const noUserHash = Bun.password.hash('no such user', BCRYPT);
  return {
    /** The token's user (auth.ts), or null. */
    userById: (id: number) => answer(() => data.userById(id)),

    /** The user whose password matches, or the same 401 for an unknown user and a wrong password. */
    async login({ username, password }: Credentials): Promise<SportsUser> {
      checkPassword(password);
      const stored = await answer(() => data.credentials(username));
      const matches = await Bun.password.verify(password, stored?.hash ?? (await noUserHash), 'bcrypt');
      if (stored === null || !matches) throw unauthorized(BAD_CREDENTIALS);
      return stored.user;
    },

    async register({ password, ...rest }: Registration): Promise<SportsUser> {
      checkPassword(password);
      const passwordHash = await Bun.password.hash(password, BCRYPT);
      try {
        return await answer(() => data.createUser({ ...rest, passwordHash }));
      } catch (err) {
        if (err instanceof Taken) throw conflict(`username ${rest.username} is taken`);
        throw err;
      }
    },

    user: async (id: number) => found('user', await answer(() => data.userById(id))),
    facilities: (paging: Paging) => answer(() => data.facilities(paging)),

    async facility(id: number) {
      const facility = found('facility', await answer(() => data.facilityById(id)));
      return { ...facility, fields: await answer(() => data.fieldsOf(id)) };
    },

    /** Before the body of a new field: the caller's own facility (400, 404, 403). */
    async ownFacility(caller: SportsUser, rawId: string | undefined): Promise<Facility> {
      const id = pathId(rawId);
      const facility = found('facility', await answer(() => data.facilityById(id)));
      if (facility.ownerId !== caller.id) throw forbidden("only the facility's owner may add fields to it");
      return facility;
    },

    async createField(facility: Facility, body: FieldInput) {
      try {
        return await answer(() => data.createField(facility.id, body));
      } catch (err) {
        if (err instanceof Taken) throw conflict(`the facility already has a field named ${body.name}`);
        throw err;
      }
    },

    fields: (paging: Paging, sport: Sport | undefined) => answer(() => data.fields(paging, sport)),
    field: async (id: number) => found('field', await answer(() => data.fieldById(id))),
    reservations: (caller: SportsUser, paging: Paging, status: Status | undefined) => answer(() => data.reservations(caller, paging, status)),

    /** Before the body of a reservation: users only (403). */
    usersOnly(caller: SportsUser) {
      if (caller.role !== 'user') throw forbidden('only users reserve fields');
    },

    async reserve(caller: SportsUser, body: ReservationInput) {
      const broken = reservationRuleBroken(body);
      if (broken !== null) throw new ProblemError(PROBLEMS.invalidBody, broken);
      found('field', await answer(() => data.fieldById(body.fieldId)));
      try {
        return await answer(() => data.createReservation(caller.id, body));
      } catch (err) {
        if (err instanceof Overlap) throw conflict('the field is already reserved for an overlapping slot');
        throw err;
      }
    },

    /** The path's reservation (400, 404). */
    async target(rawId: string | undefined): Promise<OwnedReservation> {
      const id = pathId(rawId);
      return found('reservation', await answer(() => data.reservationById(id)));
    },

    reservation(caller: SportsUser, r: OwnedReservation) {
      if (!mayRead(caller, r)) throw forbidden("only the reservation's user or its facility's owner may read it");
      return withoutOwner(r);
    },

    /** Before the body of a decision: the field's owner only (403). */
    ownerOnly(caller: SportsUser, r: OwnedReservation) {
      if (caller.id !== r.ownerId) throw forbidden("only the facility's owner accepts or refuses its reservations");
    },

    async decide(r: OwnedReservation, status: 'accepted' | 'refused') {
      const updated = await answer(() => data.decide(r.id, status));
      if (updated === null) throw conflict('the reservation was already decided');
      return updated;
    },

    async rating(caller: SportsUser, r: OwnedReservation) {
      if (!mayRead(caller, r)) throw forbidden("only the reservation's user or its facility's owner may read its rating");
      return found('rating', await answer(() => data.ratingOf(r.id)));
    },

    /** Before the body of a rating: the reserving user only (403). */
    reserverOnly(caller: SportsUser, r: OwnedReservation) {
      if (caller.id !== r.userId) throw forbidden('only the user who made the reservation rates it');
    },

    async rate(r: OwnedReservation, body: RatingInput) {
      if (r.status !== 'accepted') throw conflict('only an accepted reservation can be rated');
      try {
        return await answer(() => data.createRating(r.id, body));
      } catch (err) {
        if (err instanceof Taken) throw conflict('the reservation is already rated');
        throw err;
      }
    },
  };
}
