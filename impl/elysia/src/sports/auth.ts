// Bearer JWT authentication of the sports API over @elysiajs/jwt, with the users API's rules
// (src/users/auth.ts): HS256 only, `exp` and `sub` required, and the caller loaded on every
// request so that the stored role decides. Here `sub` is a user id in canonical decimal form.
import type { JWTVerifyOptions } from 'jose';
import { unauthorized, type JwtVerifier } from '../users/auth.ts';
import { ID, type SportsUser } from './schemas.ts';

const BEARER = /^Bearer +([^\s]+) *$/i;
const VERIFY: JWTVerifyOptions = { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] };

/** The stored user a request's bearer token belongs to, or a 401 problem. */
export function createAuthenticate(loadUser: (id: number) => Promise<SportsUser | null>) {
  return async ({ jwt, request }: { jwt: JwtVerifier; request: Request }): Promise<SportsUser> => {
    const token = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token === undefined) throw unauthorized('a bearer token is required');
    const claims = await jwt.verify(token, VERIFY);
    if (claims === false || typeof claims.sub !== 'string' || !ID.test(claims.sub)) throw unauthorized('the token is not valid');
    const caller = await loadUser(Number(claims.sub));
    if (caller === null) throw unauthorized('the token is not valid');
    return caller;
  };
}
