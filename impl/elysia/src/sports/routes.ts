// Routes of the sports API, as an Elysia plugin with @elysiajs/jwt. The spec's order of checks
// (token 401, path id 400, existence 404, permission 403, body 415/413/400, state 409) decides
// where each runs in Elysia's lifecycle (parse → transform → validation → handler):
// - the reads authenticate in a derive (a transform), so before their id or query is validated;
// - the four writes behind a token check token, id, existence and permission in a first parse
//   hook, ahead of the JSON parser (as PUT /users/:id does), and keep what it loaded for the
//   handler (a WeakMap on the request, as app.ts keeps the Server-Timing start).
// Bodies: application/json, at most 64 KiB. Any other method on these paths is a 405 (registered
// outside the derive, so it needs no token).
import { jwt } from '@elysiajs/jwt';
import { Elysia } from 'elysia';
import { jsonBody } from '../body.ts';
import type { JwtConfig } from '../config.ts';
import { methodNotAllowed } from '../problem.ts';
import type { JwtVerifier } from '../users/auth.ts';
import { createAuthenticate } from './auth.ts';
import type { SportsHandlers } from './handlers.ts';
import { credentials, fieldInput, fieldsQuery, idParams, pageQuery, pagingOf, ratingInput, registration, reservationInput, reservationsQuery, statusInput } from './schemas.ts';

const parse = jsonBody({ limit: 64 * 1024 });

type HookContext = { jwt: JwtVerifier; request: Request; params: Record<string, string | undefined> };

/** A check ahead of the body: a parse hook that answers nothing (so the JSON parser runs next) and keeps what the check loaded for the handler. */
function ahead<T>(check: (c: HookContext) => Promise<T>) {
  const kept = new WeakMap<Request, T>();
  return {
    parse: async (c: HookContext): Promise<undefined> => {
      kept.set(c.request, await check(c));
      return undefined;
    },
    of(request: Request): T {
      const value = kept.get(request);
      if (value === undefined) throw new Error('the check ahead of the body did not run');
      return value;
    },
  };
}

export function sportsRoutes(handlers: SportsHandlers, config: JwtConfig) {
  const authenticate = createAuthenticate(handlers.userById);
  const created = (set: { status?: number | string; headers: Record<string, unknown> }, location: string) => {
    set.status = 201;
    set.headers.location = location;
  };

  const ownFacility = ahead(async (c) => {
    const caller = await authenticate(c);
    return handlers.ownFacility(caller, c.params.id);
  });
  const reserver = ahead(async (c) => {
    const caller = await authenticate(c);
    handlers.usersOnly(caller);
    return caller;
  });
  const decision = ahead(async (c) => {
    const caller = await authenticate(c);
    const reservation = await handlers.target(c.params.id);
    handlers.ownerOnly(caller, reservation);
    return reservation;
  });
  const rated = ahead(async (c) => {
    const caller = await authenticate(c);
    const reservation = await handlers.target(c.params.id);
    handlers.reserverOnly(caller, reservation);
    return reservation;
  });

  return (
    new Elysia({ name: 'sports' })
      .use(jwt({ name: 'jwt', secret: config.secret, alg: 'HS256' }))
      .post(
        '/sports/login',
        async ({ body, jwt }) => {
          const user = await handlers.login(body);
          const token = await jwt.sign({ sub: String(user.id), role: user.role, exp: Math.floor(Date.now() / 1000) + config.lifetimeSeconds });
          return { token, tokenType: 'Bearer', expiresIn: config.lifetimeSeconds };
        },
        { parse, body: credentials },
      )
      .post(
        '/sports/users',
        async ({ body, set }) => {
          const user = await handlers.register(body);
          created(set, `/sports/users/${user.id}`);
          return user;
        },
        { parse, body: registration },
      )
      .post(
        '/sports/sports-facilities/:id/sports-field',
        async ({ request, body, set }) => {
          const field = await handlers.createField(ownFacility.of(request), body);
          created(set, `/sports/sports-fields/${field.id}`);
          return field;
        },
        { params: idParams, parse: [ownFacility.parse, parse], body: fieldInput },
      )
      .post(
        '/sports/reservations',
        async ({ request, body, set }) => {
          const reservation = await handlers.reserve(reserver.of(request), body);
          created(set, `/sports/reservations/${reservation.id}`);
          return reservation;
        },
        { parse: [reserver.parse, parse], body: reservationInput },
      )
      .put('/sports/reservations/:id/status', ({ request, body }) => handlers.decide(decision.of(request), body.status), {
        params: idParams,
        parse: [decision.parse, parse],
        body: statusInput,
      })
      .post(
        '/sports/reservations/:id/rating',
        async ({ request, body, set }) => {
          const reservation = rated.of(request);
          const rating = await handlers.rate(reservation, body);
          created(set, `/sports/reservations/${reservation.id}/rating`);
          return rating;
        },
        { params: idParams, parse: [rated.parse, parse], body: ratingInput },
      )
      .all('/sports/login', methodNotAllowed('POST'))
      .all('/sports/users', methodNotAllowed('POST'))
      .all('/sports/users/:id', methodNotAllowed('GET'))
      .all('/sports/sports-facilities', methodNotAllowed('GET'))
      .all('/sports/sports-facilities/:id', methodNotAllowed('GET'))
      .all('/sports/sports-facilities/:id/sports-field', methodNotAllowed('POST'))
      .all('/sports/sports-fields', methodNotAllowed('GET'))
      .all('/sports/sports-fields/:id', methodNotAllowed('GET'))
      .all('/sports/reservations', methodNotAllowed('GET, POST'))
      .all('/sports/reservations/:id', methodNotAllowed('GET'))
      .all('/sports/reservations/:id/status', methodNotAllowed('PUT'))
      .all('/sports/reservations/:id/rating', methodNotAllowed('GET, POST'))
      .guard({}, (app) =>
        app
          .derive(async (c) => ({ caller: await authenticate(c) }))
          .get('/sports/users/:id', ({ params }) => handlers.user(Number(params.id)), { params: idParams })
          .get('/sports/sports-facilities', ({ query }) => handlers.facilities(pagingOf(query)), { query: pageQuery })
          .get('/sports/sports-facilities/:id', ({ params }) => handlers.facility(Number(params.id)), { params: idParams })
          .get('/sports/sports-fields', ({ query }) => handlers.fields(pagingOf(query), query.sport), { query: fieldsQuery })
          .get('/sports/sports-fields/:id', ({ params }) => handlers.field(Number(params.id)), { params: idParams })
          .get('/sports/reservations', ({ caller, query }) => handlers.reservations(caller, pagingOf(query), query.status), { query: reservationsQuery })
          .get('/sports/reservations/:id', async ({ caller, params }) => handlers.reservation(caller, await handlers.target(params.id)), { params: idParams })
          .get('/sports/reservations/:id/rating', async ({ caller, params }) => handlers.rating(caller, await handlers.target(params.id)), { params: idParams }),
      )
  );
}
