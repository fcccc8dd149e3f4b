// Bearer JWT authentication for the users API: HS256 only (jsonwebtoken's
// `algorithms` list, so `none` and every other algorithm are refused), `exp`
// required, `sub` must be a user id, and the user must still exist: the caller
// is loaded on every authenticated request, and the stored role — not the
// token's claim — is what authorization looks at.
import jwt from 'jsonwebtoken';

import { PROBLEMS, sendProblem } from './problem.js';

export const OBJECT_ID = /^[0-9a-f]{24}$/;
/** A sports user id as a token's `sub`: 1..2147483647 in canonical decimal form. */
export const SPORTS_SUBJECT = /^(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])$/;
const BEARER = /^Bearer +([^\s]+) *$/i;

const optionalNumber = (value) => value === undefined || typeof value === 'number';

export function unauthorized(res, detail) {
  res.set('WWW-Authenticate', 'Bearer');
  sendProblem(res, PROBLEMS.unauthorized, detail);
}

/**
 * @param {{ secret: string, lifetimeSeconds: number }} jwtConfig
 * @param {(id: string) => Promise<object|null>} loadUser the public user by id, or null
 * @param {RegExp} [subject] what a `sub` claim must look like (users: an ObjectId; sports: a decimal id)
 */
export function createAuth(jwtConfig, loadUser, subject = OBJECT_ID) {
  const { secret, lifetimeSeconds } = jwtConfig;
  return {
    lifetimeSeconds,

    /** A signed token for `user` ({id, role}): claims sub, role, iat, exp. */
    issue(user) {
      return jwt.sign({ role: user.role }, secret, { algorithm: 'HS256', subject: String(user.id), expiresIn: lifetimeSeconds });
    },

    /** Middleware: req.caller = the stored user the token belongs to, or a 401. */
    async authenticate(req, res, next) {
      const header = req.headers.authorization;
      const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
      if (token === undefined) return unauthorized(res, 'a bearer token is required');
      let claims;
      try {
        claims = jwt.verify(token, secret, { algorithms: ['HS256'] });
      } catch {
        return unauthorized(res, 'the token is not valid');
      }
      // jsonwebtoken checks the types of exp and nbf when present, not iat's: every date claim is a
      // NumericDate, a number (RFC 7519 §2), and exp is required.
      if (typeof claims !== 'object' || claims === null || typeof claims.exp !== 'number' || !optionalNumber(claims.iat) || typeof claims.sub !== 'string' || !subject.test(claims.sub)) {
        return unauthorized(res, 'the token is not valid');
      }
      const caller = await loadUser(claims.sub);
      if (caller === null) return unauthorized(res, 'the token is not valid');
      req.caller = caller;
      next();
    },
  };
}

/** Middleware after authenticate: admins only. */
export function requireAdmin(req, res, next) {
  if (req.caller.role !== 'admin') return sendProblem(res, PROBLEMS.forbidden, 'only admins may do this');
  next();
}

/** Whether `caller` may change or delete the user `id`: themself, or any user if an admin. */
export function mayChange(caller, id) {
  return caller.id === id || caller.role === 'admin';
}
