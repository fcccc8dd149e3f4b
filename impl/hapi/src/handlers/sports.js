// Handlers of the sports API, and the route prerequisites (`pre`) they rely on: validated
// input (the routes' joi schemas and the JWT strategy ran already; the caller is
// request.auth.credentials.user, loaded from the database) → data access → response. The
// prerequisites load the path's row (404) and check the caller's permission (403) in the
// order spec/README.md fixes, before the body's faults (src/body-last.js). A thrown error
// reaches onPreResponse (src/problem.js).

import bcrypt from 'bcrypt';

import { Overlap, Taken } from '../data/sports.js';
import { PROBLEMS, problemError } from '../problem.js';
import { DEFAULT_PAGE, DEFAULT_SIZE } from '../schemas/sports.js';

export const BCRYPT_COST = 10;
// One answer for an unknown username and a wrong password (no user enumeration).
const BAD_CREDENTIALS = 'username or password is wrong';

const notFound = (what) => problemError(PROBLEMS.notFound, `no ${what} with that id`);
const forbidden = (detail) => problemError(PROBLEMS.forbidden, detail);
const conflict = (detail) => problemError(PROBLEMS.conflict, detail);
const caller = (request) => request.auth.credentials.user;
const paging = ({ page, size }) => ({ page: page === undefined ? DEFAULT_PAGE : Number(page), size: size === undefined ? DEFAULT_SIZE : Number(size) });
const created = (h, body, location) => h.response(body).code(201).header('Location', location);

/**
 * @param {ReturnType<import('../data/sports.js').createSportsData>} data
 * @param {ReturnType<import('../auth.js').createTokens>} tokens
 */
export function createSportsHandlers(data, tokens) {
  // An unknown username is compared with this hash: the bcrypt work of a wrong password.
  const noUserHash = bcrypt.hashSync('no such user', BCRYPT_COST);
  const readsReservation = (user, reservation) => user.id === reservation.userId || user.id === reservation.ownerId;

  return {
    // --- prerequisites (route `pre`), in the order of the checks ----------------------

    /** pre `facility`: the path's facility (404). */
    async facility(request) {
      const found = await data.facilityById(Number(request.params.id));
      if (found === null) throw notFound('facility');
      return found;
    },

    /** pre: only the facility's owner adds fields to it (403, also for users). */
    ownsFacility(request, h) {
      if (request.pre.facility.ownerId !== caller(request).id) throw forbidden("only the facility's owner may add fields to it");
      return h.continue;
    },

    /** pre `reservation`: the path's reservation with its field's owner (404). */
    async reservation(request) {
      const found = await data.reservationById(Number(request.params.id));
      if (found === null) throw notFound('reservation');
      return found;
    },

    /** pre: the reservation's user or its field's owner reads it and its rating (403). */
    readsReservation(request, h) {
      if (!readsReservation(caller(request), request.pre.reservation)) throw forbidden("only the reservation's user or its facility's owner may read it");
      return h.continue;
    },

    /** pre: only the field's owner accepts or refuses (403, also for the reserving user). */
    decidesReservation(request, h) {
      if (caller(request).id !== request.pre.reservation.ownerId) throw forbidden("only the facility's owner accepts or refuses its reservations");
      return h.continue;
    },

    /** pre: only the reserving user rates (403). */
    ratesReservation(request, h) {
      if (caller(request).id !== request.pre.reservation.userId) throw forbidden('only the user who made the reservation rates it');
      return h.continue;
    },

    // --- handlers -------------------------------------------------------------------------

    // POST /sports/login
    async login(request) {
      const { username, password } = request.payload;
      const found = await data.credentials(username);
      const matches = await bcrypt.compare(password, found?.hash ?? noUserHash);
      if (found === null || !matches) throw problemError(PROBLEMS.unauthorized, BAD_CREDENTIALS);
      return { token: tokens.issue(found.user), tokenType: 'Bearer', expiresIn: tokens.lifetimeSeconds };
    },

    // POST /sports/users: the role is always `user`.
    async register(request, h) {
      const { password, ...profile } = request.payload;
      let user;
      try {
        user = await data.createUser({ ...profile, passwordHash: await bcrypt.hash(password, BCRYPT_COST) });
      } catch (err) {
        if (err instanceof Taken) throw conflict(`username ${profile.username} is taken`);
        throw err;
      }
      return created(h, user, `/sports/users/${user.id}`);
    },

    // GET /sports/users/{id}
    async user(request) {
      const found = await data.userById(Number(request.params.id));
      if (found === null) throw notFound('user');
      return found;
    },

    // GET /sports/sports-facilities
    facilities: (request) => data.facilities(paging(request.query)),

    // GET /sports/sports-facilities/{id} (pre: facility)
    async facilityWithFields(request) {
      const { facility } = request.pre;
      return { ...facility, fields: await data.fieldsOf(facility.id) };
    },

    // POST /sports/sports-facilities/{id}/sports-field (pre: facility, ownsFacility, body)
    async createField(request, h) {
      let field;
      try {
        field = await data.createField(request.pre.facility.id, request.payload);
      } catch (err) {
        if (err instanceof Taken) throw conflict(`the facility already has a field named ${request.payload.name}`);
        throw err;
      }
      return created(h, field, `/sports/sports-fields/${field.id}`);
    },

    // GET /sports/sports-fields
    fields: (request) => data.fields(paging(request.query), request.query.sport),

    // GET /sports/sports-fields/{id}
    async field(request) {
      const found = await data.fieldById(Number(request.params.id));
      if (found === null) throw notFound('field');
      return found;
    },

    // GET /sports/reservations: a user's own, or those of an owner's fields.
    reservations: (request) => data.reservations(caller(request), paging(request.query), request.query.status),

    // POST /sports/reservations (scope user; pre: body)
    async reserve(request, h) {
      const body = request.payload;
      if ((await data.fieldById(body.fieldId)) === null) throw notFound('field');
      let reservation;
      try {
        reservation = await data.createReservation(caller(request).id, body);
      } catch (err) {
        if (err instanceof Overlap) throw conflict('the field is already reserved for an overlapping slot');
        throw err;
      }
      return created(h, reservation, `/sports/reservations/${reservation.id}`);
    },

    // GET /sports/reservations/{id} (pre: reservation, readsReservation)
    reservationView(request) {
      const { ownerId: _ownerId, ...reservation } = request.pre.reservation;
      return reservation;
    },

    // PUT /sports/reservations/{id}/status (pre: reservation, decidesReservation, body)
    async decide(request) {
      const decided = await data.decide(request.pre.reservation.id, request.payload.status);
      if (decided === null) throw conflict('the reservation was already decided');
      return decided;
    },

    // GET /sports/reservations/{id}/rating (pre: reservation, readsReservation)
    async rating(request) {
      const found = await data.ratingOf(request.pre.reservation.id);
      if (found === null) throw notFound('rating');
      return found;
    },

    // POST /sports/reservations/{id}/rating (pre: reservation, ratesReservation, body)
    async rate(request, h) {
      const { reservation } = request.pre;
      if (reservation.status !== 'accepted') throw conflict('only an accepted reservation can be rated');
      let rating;
      try {
        rating = await data.createRating(reservation.id, request.payload);
      } catch (err) {
        if (err instanceof Taken) throw conflict('the reservation is already rated');
        throw err;
      }
      return created(h, rating, `/sports/reservations/${reservation.id}/rating`);
    },
  };
}
