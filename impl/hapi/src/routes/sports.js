// The sports API's routes as a Hapi plugin, under /sports: method + path → auth (the sports
// JWT strategy; scope `user` to reserve) → validate (joi) → pre (the path's row: 404; the
// caller's permission: 403; then the body's faults) → handler, and a 405 for every other
// method on the same paths (src/problem.js). The order is spec/README.md's (sports, rule 4):
// token 401, path id 400, existence 404, permission 403, body 415/413/400, state 409.

import { jwtAuth } from '../auth.js';
import { bodyChecked, keepBodyInvalid, keepPayloadError } from '../body-last.js';
import { methodNotAllowed, validationFailed } from '../problem.js';
import { credentials, decision, field, fieldsQuery, idParams, isId, pagingQuery, rating, registration, reservation, reservationsQuery, VALIDATION } from '../schemas/sports.js';

const STRATEGY = 'fairbench-sports-jwt';
const token = { strategy: STRATEGY };
const usersOnly = { strategy: STRATEGY, access: { scope: ['user'] } };

// 64 KiB; JSON only, and a missing Content-Type is not taken for JSON (Hapi's default would).
const JSON_BODY = { maxBytes: 64 * 1024, allow: 'application/json', defaultContentType: 'application/octet-stream', output: 'data', parse: true };

/** Route options of a body checked at once (login, sign-up: nothing to check before it). */
const bodyNow = (payload) => ({ payload: JSON_BODY, validate: { payload, options: VALIDATION, failAction: validationFailed } });

/** Route options of a body whose faults wait for the prerequisites `checks` (src/body-last.js). */
const bodyLast = (payload, params, checks) => ({
  payload: { ...JSON_BODY, failAction: keepPayloadError },
  validate: { ...params, payload, options: VALIDATION, failAction: keepBodyInvalid },
  pre: [...checks, bodyChecked],
});

/** Route options of a read: its parameters (400 at once) and prerequisites. */
const read = (validate, pre = []) => ({ auth: token, validate: { ...validate, options: VALIDATION, failAction: validationFailed }, pre });

export const sportsRoutes = {
  name: 'fairbench-sports',
  async register(server, { handlers: h, secret, loadUser }) {
    await server.register({ plugin: jwtAuth, options: { strategy: STRATEGY, secret, subject: isId, loadUser } });
    const facility = { method: h.facility, assign: 'facility' };
    const target = { method: h.reservation, assign: 'reservation' };
    const path = { params: idParams };
    server.route([
      { method: 'POST', path: '/sports/login', options: { ...bodyNow(credentials), handler: h.login } },
      { ...methodNotAllowed('POST'), path: '/sports/login' },
      { method: 'POST', path: '/sports/users', options: { ...bodyNow(registration), handler: h.register } },
      { ...methodNotAllowed('POST'), path: '/sports/users' },
      { method: 'GET', path: '/sports/users/{id}', options: { ...read(path), handler: h.user } },
      { ...methodNotAllowed('GET, HEAD'), path: '/sports/users/{id}' },

      { method: 'GET', path: '/sports/sports-facilities', options: { ...read({ query: pagingQuery }), handler: h.facilities } },
      { ...methodNotAllowed('GET, HEAD'), path: '/sports/sports-facilities' },
      { method: 'GET', path: '/sports/sports-facilities/{id}', options: { ...read(path, [facility]), handler: h.facilityWithFields } },
      { ...methodNotAllowed('GET, HEAD'), path: '/sports/sports-facilities/{id}' },
      {
        method: 'POST',
        path: '/sports/sports-facilities/{id}/sports-field',
        options: { auth: token, ...bodyLast(field, path, [facility, h.ownsFacility]), handler: h.createField },
      },
      { ...methodNotAllowed('POST'), path: '/sports/sports-facilities/{id}/sports-field' },

      { method: 'GET', path: '/sports/sports-fields', options: { ...read({ query: fieldsQuery }), handler: h.fields } },
      { ...methodNotAllowed('GET, HEAD'), path: '/sports/sports-fields' },
      { method: 'GET', path: '/sports/sports-fields/{id}', options: { ...read(path), handler: h.field } },
      { ...methodNotAllowed('GET, HEAD'), path: '/sports/sports-fields/{id}' },

      { method: 'GET', path: '/sports/reservations', options: { ...read({ query: reservationsQuery }), handler: h.reservations } },
      // Users only (the scope: 403 before the body); the field's existence (404) after the body.
      { method: 'POST', path: '/sports/reservations', options: { auth: usersOnly, ...bodyLast(reservation, {}, []), handler: h.reserve } },
      { ...methodNotAllowed('GET, HEAD, POST'), path: '/sports/reservations' },
      { method: 'GET', path: '/sports/reservations/{id}', options: { ...read(path, [target, h.readsReservation]), handler: h.reservationView } },
      { ...methodNotAllowed('GET, HEAD'), path: '/sports/reservations/{id}' },
      {
        method: 'PUT',
        path: '/sports/reservations/{id}/status',
        options: { auth: token, ...bodyLast(decision, path, [target, h.decidesReservation]), handler: h.decide },
      },
      { ...methodNotAllowed('PUT'), path: '/sports/reservations/{id}/status' },
      { method: 'GET', path: '/sports/reservations/{id}/rating', options: { ...read(path, [target, h.readsReservation]), handler: h.rating } },
      {
        method: 'POST',
        path: '/sports/reservations/{id}/rating',
        options: { auth: token, ...bodyLast(rating, path, [target, h.ratesReservation]), handler: h.rate },
      },
      { ...methodNotAllowed('GET, HEAD, POST'), path: '/sports/reservations/{id}/rating' },
    ]);
  },
};
