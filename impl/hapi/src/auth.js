// Bearer JWT authentication the way Hapi's docs teach it: the @hapi/jwt plugin's `jwt`
// scheme as a named strategy per API (users, sports; HS256 only, signature and `exp` verified
// by the plugin), and its `validate` step, which loads the caller on every request, so a
// deleted user's token is refused and the stored role, not the token's claim, decides. The
// role and the user's own id become the credentials' scope, which routes check with
// `auth.access.scope` (`admin`, `user-{params.id}`, `user`).

import Jwt from '@hapi/jwt';

import { problemOf, problemReply } from './problem.js';

/** The users API's strategy: `sub` is an ObjectId (24 lowercase hex digits). */
export const STRATEGY = 'fairbench-jwt';
export const USERS_SUBJECT = (sub) => /^[0-9a-f]{24}$/.test(sub);
const ALGORITHM = 'HS256';

/** The scope a route names to let the user {id} (themself) through. */
export const SELF_SCOPE = 'user-{params.id}';

/** Signs the token login answers with: claims sub (the id as a string, a sports id in decimal), role, iat, exp. */
export function createTokens({ secret, lifetimeSeconds }) {
  return {
    lifetimeSeconds,
    issue(user) {
      return Jwt.token.generate({ sub: String(user.id), role: user.role }, { key: secret, algorithm: ALGORITHM }, { ttlSec: lifetimeSeconds });
    },
  };
}

const optionalNumber = (value) => value === undefined || typeof value === 'number';

/**
 * The plugin that defines a strategy (registered once per API that uses tokens). Options:
 * `strategy` (its name), `secret`, `subject(sub)` (whether a `sub` claim names a user of
 * that API), and `loadUser(sub)`, the public user or null.
 */
export const jwtAuth = {
  name: 'fairbench-jwt-auth',
  multiple: true,
  async register(server, { strategy, secret, subject, loadUser }) {
    await server.register(Jwt, { once: true });
    server.auth.strategy(strategy, 'jwt', {
      // One key and one algorithm: a token with `alg: none` or any other algorithm has no key.
      keys: { key: secret, algorithms: [ALGORITHM] },
      verify: { aud: false, iss: false, sub: false, exp: true, nbf: true, maxAgeSec: 0, timeSkewSec: 0 },
      async validate(artifacts, request, h) {
        const claims = artifacts.decoded.payload ?? {};
        // The plugin checks `exp` only when it is there (the contract requires it), and `iat`'s type
        // only with a maxAgeSec: every date claim present must be a NumericDate, a number (RFC 7519 §2).
        if (typeof claims.exp !== 'number' || !optionalNumber(claims.iat) || typeof claims.sub !== 'string' || !subject(claims.sub)) return { isValid: false };
        let user;
        try {
          user = await loadUser(claims.sub);
        } catch (err) {
          // The plugin would make any error thrown here a 401: a database that did not answer is a 503.
          return { isValid: false, response: problemReply(h, problemOf(err, `authenticate ${request.method.toUpperCase()} ${request.path}`)) };
        }
        if (user === null) return { isValid: false };
        return { isValid: true, credentials: { user, scope: [user.role, `user-${user.id}`] } };
      },
    });
  },
};
