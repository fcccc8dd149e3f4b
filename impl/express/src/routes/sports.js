// Routes of the sports API -> handlers, under /sports. Every operation except login and
// sign-up authenticates first; known paths answer other methods with 405. Bodies:
// application/json only (415), at most 64 KiB (413), valid JSON (400 malformed-body),
// parsed after the token, id, existence and permission checks.
import { Router } from 'express';

import { jsonBody } from '../json-body.js';
import { methodNotAllowed } from '../problem.js';

const body = jsonBody({ limit: '64kb' });

export function sportsRoutes(h, auth) {
  const authed = auth.authenticate;
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/sports/login').post(body, h.login).all(methodNotAllowed('POST'));
  router.route('/sports/users').post(body, h.register).all(methodNotAllowed('POST'));
  router.route('/sports/users/:id').get(authed, h.user).all(methodNotAllowed('GET, HEAD'));
  router.route('/sports/sports-facilities').get(authed, h.facilities).all(methodNotAllowed('GET, HEAD'));
  router.route('/sports/sports-facilities/:id').get(authed, h.facility).all(methodNotAllowed('GET, HEAD'));
  router.route('/sports/sports-facilities/:id/sports-field').post(authed, h.ownFacility, body, h.createField).all(methodNotAllowed('POST'));
  router.route('/sports/sports-fields').get(authed, h.fields).all(methodNotAllowed('GET, HEAD'));
  router.route('/sports/sports-fields/:id').get(authed, h.field).all(methodNotAllowed('GET, HEAD'));
  router.route('/sports/reservations').get(authed, h.reservations).post(authed, h.usersOnly, body, h.reserve).all(methodNotAllowed('GET, HEAD, POST'));
  router.route('/sports/reservations/:id').get(authed, h.target, h.reservation).all(methodNotAllowed('GET, HEAD'));
  router.route('/sports/reservations/:id/status').put(authed, h.target, h.ownerOnly, body, h.decide).all(methodNotAllowed('PUT'));
  router.route('/sports/reservations/:id/rating').get(authed, h.target, h.rating).post(authed, h.target, h.reserverOnly, body, h.rate).all(methodNotAllowed('GET, HEAD, POST'));
  return router;
}
