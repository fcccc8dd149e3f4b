// Handlers of the users API: validated input (the routes' joi schemas and the auth strategy
// ran already) → data access → response. A thrown error reaches onPreResponse (src/problem.js).

import bcrypt from 'bcrypt';

import { BCRYPT_COST, UsernameTaken } from '../data/users.js';
import { PROBLEMS, problemError } from '../problem.js';
import { DEFAULT_LIMIT } from '../schemas/users.js';

const notFound = (id) => problemError(PROBLEMS.notFound, `no user with id ${id}`);
// One answer for an unknown username and a wrong password (no user enumeration).
const BAD_CREDENTIALS = 'username or password is wrong';

/**
 * @param {ReturnType<import('../data/users.js').createUsersData>} data
 * @param {ReturnType<import('../auth.js').createTokens>} tokens
 */
export function createUsersHandlers(data, tokens) {
  // An unknown username is compared with this hash, so it costs the bcrypt work a wrong
  // password costs (no enumeration by timing). Made here: a process without users skips it.
  const noUserHash = bcrypt.hashSync('no such user', BCRYPT_COST);
  return {
    // GET /users, GET /admin/users
    async list(request) {
      const { limit } = request.query;
      return data.list(limit === undefined ? DEFAULT_LIMIT : Number(limit));
    },

    // POST /users: the role is always `user`.
    async register(request, h) {
      let user;
      try {
        user = await data.create({ ...request.payload, role: 'user' });
      } catch (err) {
        if (err instanceof UsernameTaken) throw problemError(PROBLEMS.conflict, `username ${request.payload.username} is taken`);
        throw err;
      }
      return h.response(user).code(201).header('Location', `/users/${user.id}`);
    },

    // GET /users/{id}
    async get(request) {
      const user = await data.byId(request.params.id);
      if (user === null) throw notFound(request.params.id);
      return user;
    },

    // PUT /users/{id} (the user themself or an admin: the route's scope)
    async update(request) {
      const user = await data.update(request.params.id, request.payload);
      if (user === null) throw notFound(request.params.id);
      return user;
    },

    // DELETE /users/{id} (the user themself or an admin: the route's scope)
    async remove(request, h) {
      if (!(await data.remove(request.params.id))) throw notFound(request.params.id);
      return h.response().code(204);
    },

    // POST /auth/login
    async login(request) {
      const { username, password } = request.payload;
      const found = await data.credentials(username);
      const matches = await bcrypt.compare(password, found?.hash ?? noUserHash);
      if (found === null || !matches) throw problemError(PROBLEMS.unauthorized, BAD_CREDENTIALS);
      return { token: tokens.issue(found.user), tokenType: 'Bearer', expiresIn: tokens.lifetimeSeconds };
    },

    // GET /me: the stored user the token belongs to (loaded by the strategy).
    me(request) {
      return request.auth.credentials.user;
    },
  };
}
