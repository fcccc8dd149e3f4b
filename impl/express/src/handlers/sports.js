// Handlers of the sports API: parse and check the request in the order spec/README.md
// fixes (token, path id, existence, permission, body, state), call the data layer, answer.
// Authentication runs before these (routes/sports.js); req.caller is the stored user.
import bcrypt from 'bcrypt';

import { unauthorized } from '../auth.js';
import { Overlap, Taken } from '../data/sports.js';
import { parseId } from '../params.js';
import { PROBLEMS, sendProblem } from '../problem.js';
import { credentials, field, rating, registration, reservation, reservationRuleBroken, SPORTS, STATUSES, status, VALIDATION } from '../schemas/sports.js';
import { hasPrototypeMember, PROTOTYPE_MEMBER } from '../json-body.js';

export const BCRYPT_COST = 10;
const BAD_CREDENTIALS = 'username or password is wrong';
const DEFAULT_SIZE = 20;
const MAX_PAGE = 100000;

/** The validated body, or null after answering 400 invalid-body. */
function validBody(schema, req, res) {
  if (hasPrototypeMember(req.body)) {
    sendProblem(res, PROBLEMS.invalidBody, PROTOTYPE_MEMBER);
    return null;
  }
  const { value, error } = schema.validate(req.body, VALIDATION);
  if (error) {
    sendProblem(res, PROBLEMS.invalidBody, error.details[0]?.message ?? error.message);
    return null;
  }
  return value;
}

function invalidParameter(res, detail) {
  sendProblem(res, PROBLEMS.invalidParameter, detail);
  return null;
}

/** A canonical decimal query parameter from 1 to max, `fallback` when absent; null after a 400. */
function queryNumber(req, res, name, max, fallback) {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  const value = parseId(raw);
  return value !== null && value <= max ? value : invalidParameter(res, `${name} must be an integer from 1 to ${max}`);
}

function paging(req, res) {
  const page = queryNumber(req, res, 'page', MAX_PAGE, 1);
  if (page === null) return null;
  const size = queryNumber(req, res, 'size', 100, DEFAULT_SIZE);
  return size === null ? null : { page, size };
}

/** An optional query parameter from a fixed list; undefined when absent, null after a 400. */
function queryChoice(req, res, name, choices) {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  return typeof raw === 'string' && choices.includes(raw) ? raw : invalidParameter(res, `${name} must be one of ${choices.join(', ')}`);
}

function pathId(req, res) {
  const id = parseId(req.params.id);
  return id ?? invalidParameter(res, 'id must be an integer from 1 to 2147483647');
}

const notFound = (res, what) => sendProblem(res, PROBLEMS.notFound, `no ${what} with that id`);
const forbidden = (res, detail) => sendProblem(res, PROBLEMS.forbidden, detail);
const conflict = (res, detail) => sendProblem(res, PROBLEMS.conflict, detail);

export function createSportsHandlers(data, auth) {
  // Compared against for an unknown username: the same bcrypt work as a wrong password.
  const noUserHash = bcrypt.hashSync('no such user', BCRYPT_COST);
  const mayRead = (caller, r) => caller.id === r.userId || caller.id === r.ownerId;
  const withoutOwner = ({ ownerId: _ownerId, ...r }) => r;

  return {
    async login(req, res) {
      const body = validBody(credentials, req, res);
      if (body === null) return;
      const found = await data.credentials(body.username);
      const matches = await bcrypt.compare(body.password, found?.hash ?? noUserHash);
      if (found === null || !matches) return unauthorized(res, BAD_CREDENTIALS);
      res.json({ token: auth.issue(found.user), tokenType: 'Bearer', expiresIn: auth.lifetimeSeconds });
    },

    async register(req, res) {
      const body = validBody(registration, req, res);
      if (body === null) return;
      const { password, ...rest } = body;
      let user;
      try {
        user = await data.createUser({ ...rest, passwordHash: await bcrypt.hash(password, BCRYPT_COST) });
      } catch (err) {
        if (err instanceof Taken) return conflict(res, `username ${body.username} is taken`);
        throw err;
      }
      res.status(201).location(`/sports/users/${user.id}`).json(user);
    },

    async user(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      const user = await data.userById(id);
      if (user === null) return notFound(res, 'user');
      res.json(user);
    },

    async facilities(req, res) {
      const p = paging(req, res);
      if (p === null) return;
      res.json(await data.facilities(p));
    },

    async facility(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      const facility = await data.facilityById(id);
      if (facility === null) return notFound(res, 'facility');
      res.json({ ...facility, fields: await data.fieldsOf(id) });
    },

    /** Middleware before the body of POST …/sports-field: req.facility = the caller's own facility (400, 404, 403). */
    async ownFacility(req, res, next) {
      const id = pathId(req, res);
      if (id === null) return;
      const facility = await data.facilityById(id);
      if (facility === null) return notFound(res, 'facility');
      if (facility.ownerId !== req.caller.id) return forbidden(res, "only the facility's owner may add fields to it");
      req.facility = facility;
      next();
    },

    async createField(req, res) {
      const body = validBody(field, req, res);
      if (body === null) return;
      let created;
      try {
        created = await data.createField(req.facility.id, body);
      } catch (err) {
        if (err instanceof Taken) return conflict(res, `the facility already has a field named ${body.name}`);
        throw err;
      }
      res.status(201).location(`/sports/sports-fields/${created.id}`).json(created);
    },

    async fields(req, res) {
      const p = paging(req, res);
      if (p === null) return;
      const sport = queryChoice(req, res, 'sport', SPORTS);
      if (sport === null) return;
      res.json(await data.fields(p, sport));
    },

    async field(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      const found = await data.fieldById(id);
      if (found === null) return notFound(res, 'field');
      res.json(found);
    },

    async reservations(req, res) {
      const p = paging(req, res);
      if (p === null) return;
      const wanted = queryChoice(req, res, 'status', STATUSES);
      if (wanted === null) return;
      res.json(await data.reservations(req.caller, p, wanted));
    },

    /** Middleware before the body of POST /sports/reservations: users only (403). */
    usersOnly(req, res, next) {
      if (req.caller.role !== 'user') return forbidden(res, 'only users reserve fields');
      next();
    },

    async reserve(req, res) {
      const body = validBody(reservation, req, res);
      if (body === null) return;
      const broken = reservationRuleBroken(body);
      if (broken !== null) return sendProblem(res, PROBLEMS.invalidBody, broken);
      if ((await data.fieldById(body.fieldId)) === null) return notFound(res, 'field');
      let created;
      try {
        created = await data.createReservation(req.caller.id, body);
      } catch (err) {
        if (err instanceof Overlap) return conflict(res, 'the field is already reserved for an overlapping slot');
        throw err;
      }
      res.status(201).location(`/sports/reservations/${created.id}`).json(created);
    },

    /** Middleware for /sports/reservations/:id…: req.reservation = the reservation (400, 404). */
    async target(req, res, next) {
      const id = pathId(req, res);
      if (id === null) return;
      const found = await data.reservationById(id);
      if (found === null) return notFound(res, 'reservation');
      req.reservation = found;
      next();
    },

    reservation(req, res) {
      if (!mayRead(req.caller, req.reservation)) return forbidden(res, "only the reservation's user or its facility's owner may read it");
      res.json(withoutOwner(req.reservation));
    },

    /** Middleware before the body of PUT …/status: the field's owner only (403). */
    ownerOnly(req, res, next) {
      if (req.caller.id !== req.reservation.ownerId) return forbidden(res, "only the facility's owner accepts or refuses its reservations");
      next();
    },

    async decide(req, res) {
      const body = validBody(status, req, res);
      if (body === null) return;
      const updated = await data.decide(req.reservation.id, body.status);
      if (updated === null) return conflict(res, 'the reservation was already decided');
      res.json(updated);
    },

    async rating(req, res) {
      if (!mayRead(req.caller, req.reservation)) return forbidden(res, "only the reservation's user or its facility's owner may read its rating");
      const found = await data.ratingOf(req.reservation.id);
      if (found === null) return notFound(res, 'rating');
      res.json(found);
    },

    /** Middleware before the body of POST …/rating: the reserving user only (403). */
    reserverOnly(req, res, next) {
      if (req.caller.id !== req.reservation.userId) return forbidden(res, 'only the user who made the reservation rates it');
      next();
    },

    async rate(req, res) {
      const body = validBody(rating, req, res);
      if (body === null) return;
      if (req.reservation.status !== 'accepted') return conflict(res, 'only an accepted reservation can be rated');
      let created;
      try {
        created = await data.createRating(req.reservation.id, body);
      } catch (err) {
        if (err instanceof Taken) return conflict(res, 'the reservation is already rated');
        throw err;
      }
      res.status(201).location(`/sports/reservations/${req.reservation.id}/rating`).json(created);
    },
  };
}
