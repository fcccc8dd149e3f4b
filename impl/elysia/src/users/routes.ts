// Routes of the users API, as an Elysia plugin with @elysiajs/jwt. The spec's order of faults
// decides where each check runs in Elysia's lifecycle (parse → transform → validation →
// handler): PUT and DELETE /users/:id check the token (401), the id (400) and the permission
// (403) before the body is read, so on PUT a parse hook does it ahead of the JSON parser and on
// DELETE a transform hook; GET /me and /admin/users authenticate in a derive (a transform), so
// before the limit is validated. Bodies: application/json, at most 64 KiB. Any other method on
// these paths is a 405.
import { jwt } from '@elysiajs/jwt';
import { Elysia } from 'elysia';
import { jsonBody } from '../body.ts';
import type { JwtConfig } from '../config.ts';
import { methodNotAllowed } from '../problem.ts';
import { createAuthenticate, forbidden, type JwtVerifier } from './auth.ts';
import type { UsersHandlers } from './handlers.ts';
import { DEFAULT_LIMIT, credentials, listQuery, registration, update, userParams } from './schemas.ts';

const parse = jsonBody({ limit: 64 * 1024 });

export function usersRoutes(handlers: UsersHandlers, config: JwtConfig) {
  const authenticate = createAuthenticate(handlers.byId);
  /** The target of PUT/DELETE /users/:id: token, id, permission, in the spec's order. */
  const target = async (c: { jwt: JwtVerifier; request: Request; params: Record<string, string | undefined> }): Promise<undefined> => {
    handlers.target(await authenticate(c), c.params.id);
    return undefined; // a parse hook that answers nothing hands the body on to the next parser
  };
  const limitOf = (query: { limit?: string }) => (query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit));

  return new Elysia({ name: 'users' })
    .use(jwt({ name: 'jwt', secret: config.secret, alg: 'HS256' }))
    .get('/users', ({ query }) => handlers.list(limitOf(query)), { query: listQuery })
    .post(
      '/users',
      async ({ body, set }) => {
        const user = await handlers.register(body);
        set.status = 201;
        set.headers.location = `/users/${user.id}`;
        return user;
      },
      { parse, body: registration },
    )
    .all('/users', methodNotAllowed('GET, POST'))
    .get('/users/:id', ({ params }) => handlers.get(params.id), { params: userParams })
    .put('/users/:id', ({ params, body }) => handlers.update(params.id, body), { parse: [target, parse], body: update })
    .delete(
      '/users/:id',
      async ({ params, set }) => {
        await handlers.remove(params.id);
        set.status = 204;
      },
      { transform: target },
    )
    .all('/users/:id', methodNotAllowed('GET, PUT, DELETE'))
    .post(
      '/auth/login',
      async ({ body, jwt }) => {
        const user = await handlers.login(body);
        const token = await jwt.sign({ sub: user.id, role: user.role, exp: Math.floor(Date.now() / 1000) + config.lifetimeSeconds });
        return { token, tokenType: 'Bearer', expiresIn: config.lifetimeSeconds };
      },
      { parse, body: credentials },
    )
    .all('/auth/login', methodNotAllowed('POST'))
    .all('/me', methodNotAllowed('GET'))
    .all('/admin/users', methodNotAllowed('GET'))
    .guard({}, (app) => app.derive(async (c) => ({ caller: await authenticate(c) })).get('/me', ({ caller }) => caller))
    .guard({}, (app) =>
      app
        .derive(async (c) => {
          const caller = await authenticate(c);
          if (caller.role !== 'admin') throw forbidden('only admins may do this');
          return { caller };
        })
        .get('/admin/users', ({ query }) => handlers.list(limitOf(query)), { query: listQuery }),
    );
}
