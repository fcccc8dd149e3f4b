// Bearer JWT authentication of the users API over @elysiajs/jwt (jose): HS256 only (jose's
// `algorithms`, so `none` and every other algorithm are refused), `exp` and `sub` required, `sub`
// a user id, and the user must still exist: the caller is loaded on every authenticated request,
// and the stored role, not the token's claim, is what authorization looks at.
import type { JWTPayload, JWTVerifyOptions } from 'jose';
import { PROBLEMS, ProblemError } from '../problem.ts';
import { OBJECT_ID, type User } from './schemas.ts';

const BEARER = /^Bearer +([^\s]+) *$/i;
const VERIFY: JWTVerifyOptions = { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] };

/** What the @elysiajs/jwt plugin decorates the context with. */
export interface JwtVerifier {
  verify(token?: string, options?: JWTVerifyOptions): Promise<JWTPayload | false>;
}

export const unauthorized = (detail: string) => new ProblemError(PROBLEMS.unauthorized, detail, { 'www-authenticate': 'Bearer' });
export const forbidden = (detail: string) => new ProblemError(PROBLEMS.forbidden, detail);

/** The stored user a request's bearer token belongs to, or a 401 problem. */
export function createAuthenticate(loadUser: (id: string) => Promise<User | null>) {
  return async ({ jwt, request }: { jwt: JwtVerifier; request: Request }): Promise<User> => {
    const token = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token === undefined) throw unauthorized('a bearer token is required');
    const claims = await jwt.verify(token, VERIFY);
    if (claims === false || typeof claims.sub !== 'string' || !OBJECT_ID.test(claims.sub)) throw unauthorized('the token is not valid');
    const caller = await loadUser(claims.sub);
    if (caller === null) throw unauthorized('the token is not valid');
    return caller;
  };
}

/** Whether `caller` may change or delete the user `id`: themself, or any user if an admin. */
export const mayChange = (caller: User, id: string) => caller.id === id || caller.role === 'admin';
