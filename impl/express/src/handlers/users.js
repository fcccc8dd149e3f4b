// Handlers of the users API: parse and check the request, call the data layer,
// answer. Authentication is done before these run (routes/users.js) where the
// operation needs it; req.caller is then the stored user the token belongs to.
import bcrypt from 'bcrypt';

import { OBJECT_ID, mayChange, unauthorized } from '../auth.js';
import { BCRYPT_COST, UsernameTaken } from '../data/users.js';
import { parseLimit } from '../params.js';
import { PROBLEMS, sendProblem } from '../problem.js';
import { credentials, registration, update, VALIDATION } from '../schemas/users.js';
import { hasPrototypeMember, PROTOTYPE_MEMBER } from '../json-body.js';

const DEFAULT_LIMIT = 100;
const BAD_CREDENTIALS = 'username or password is wrong';

function invalidParameter(res, name, rule) {
  sendProblem(res, PROBLEMS.invalidParameter, `${name} must be ${rule}`);
}

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

/** limit from the query string: absent → 100; else 1..100 in canonical decimal form. */
function queryLimit(req, res) {
  const raw = req.query.limit;
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = parseLimit(raw);
  if (limit === null) invalidParameter(res, 'limit', 'an integer from 1 to 100');
  return limit;
}

function pathId(req, res) {
  const id = req.params.id;
  if (OBJECT_ID.test(id)) return id;
  invalidParameter(res, 'id', 'a user id (24 lowercase hexadecimal digits)');
  return null;
}

export function createUsersHandlers(data, auth) {
  // Compared against when the username is unknown, so that an unknown user costs
  // the same bcrypt work as a wrong password (no user enumeration by timing).
  // Made here, not at import: a forum-only process does not pay for it.
  const noUserHash = bcrypt.hashSync('no such user', BCRYPT_COST);
  return {
    async list(req, res) {
      const limit = queryLimit(req, res);
      if (limit === null) return;
      res.json(await data.list(limit));
    },

    async register(req, res) {
      const body = validBody(registration, req, res);
      if (body === null) return;
      let user;
      try {
        user = await data.create({ ...body, role: 'user' });
      } catch (err) {
        if (err instanceof UsernameTaken) return sendProblem(res, PROBLEMS.conflict, `username ${body.username} is taken`);
        throw err;
      }
      res.status(201).location(`/users/${user.id}`).json(user);
    },

    async get(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      const user = await data.byId(id);
      if (user === null) return sendProblem(res, PROBLEMS.notFound, `no user with id ${id}`);
      res.json(user);
    },

    /** Middleware for PUT/DELETE /users/:id after authenticate: a valid id the caller may change (400, 403). */
    target(req, res, next) {
      const id = pathId(req, res);
      if (id === null) return;
      if (!mayChange(req.caller, id)) return sendProblem(res, PROBLEMS.forbidden, 'only the user themself or an admin may do this');
      next();
    },

    async update(req, res) {
      const changes = validBody(update, req, res);
      if (changes === null) return;
      const user = await data.update(req.params.id, changes);
      if (user === null) return sendProblem(res, PROBLEMS.notFound, `no user with id ${req.params.id}`);
      res.json(user);
    },

    async remove(req, res) {
      if (!(await data.remove(req.params.id))) return sendProblem(res, PROBLEMS.notFound, `no user with id ${req.params.id}`);
      res.status(204).end();
    },

    async login(req, res) {
      const body = validBody(credentials, req, res);
      if (body === null) return;
      const found = await data.credentials(body.username);
      const matches = await bcrypt.compare(body.password, found?.hash ?? noUserHash);
      if (found === null || !matches) return unauthorized(res, BAD_CREDENTIALS);
      res.json({ token: auth.issue(found.user), tokenType: 'Bearer', expiresIn: auth.lifetimeSeconds });
    },

    me(req, res) {
      res.json(req.caller);
    },
  };
}
