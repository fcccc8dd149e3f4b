// The sports benchmark's contract (make pact): the requests bench/k6.js sends for each user
// group of bench/scenario.yaml — sign up, log in (a new account, a seeded user, an owner, and
// every owner once in setup), a page of facilities or fields, a new field on the owner's
// facility, a reservation, its acceptance by the field's owner, its rating — and what it
// reads: each status, the username, `facilityId`, `status` or `score` its checks look for,
// the first item of a page, the token and the reservation id it carries to the next step, and
// Server-Timing. Each group runs alone for one iteration (ITERATIONS=1), so its usernames,
// slot and page are fixed in advance. Tokens are the implementation's own: provider states
// forge them with its secret and Pact puts them in the Authorization headers (fromProviderState).
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcrypt';
import pg from 'pg';
import { SignJWT } from 'jose';
import { MatchersV3 as M, type V3Interaction } from '@pact-foundation/pact';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConsumerRun, PactModule, StateContext } from '@fairbench/pact/module.ts';
import { loadSportsScenario } from '../bench/scenario.ts';

// k6.js: a new account is s<RUN><tag>, tag m<group index>x<iteration>: one group per run, one iteration, so m0x0.
const RUN = 'pact';
const ACCOUNT = { username: `s${RUN}m0x0`, password: 'bench-password-1' };
// The seed's first owner owns facility 1 and its field 1 (checked by the state); its password is set by the state.
const OWNER = { id: 1, username: 'owner1', password: 'pact-owner-password', facilities: [1] };
const FIELD = 1;
// k6.js: slot 0 is 2030-01-01 from 6 to 7; the field's name is F<RUN><tag>; the first rating scores 1.
const SLOT = { fieldId: FIELD, date: '2030-01-01', startHour: 6, endHour: 7 };
const FIELD_NAME = `F${RUN}m0x0`;
// The reservation id the mock answers, which k6 then accepts and rates: the states create it under this id.
const RESERVATION = 900001;

const NO_ACCOUNT = 'no account has the username';
const ACCOUNT_EXISTS = 'a user account exists';
const OWNER_EXISTS = 'the owner of facility 1 and its fields exists';
const NO_FIELD = 'the facility has no field of that name';
const FREE_SLOT = 'the slot of the field is free';
const RESERVED = 'the user holds a reservation of the field';

const timing = { 'Server-Timing': M.regex('^app;dur=[0-9]+(\\.[0-9]+)?$', 'app;dur=0.250') };
const json = { 'Content-Type': 'application/json' };
const EXAMPLE_TOKEN = { user: 'eyJ.user.token', owner: 'eyJ.owner.token' };
const bearer = (who: 'user' | 'owner') => ({ Authorization: M.fromProviderState(`Bearer \${${who}Token}`, `Bearer ${EXAMPLE_TOKEN[who]}`) });
const accountState = { description: ACCOUNT_EXISTS, parameters: ACCOUNT };
const ownerState = { description: OWNER_EXISTS, parameters: { id: OWNER.id, username: OWNER.username, password: OWNER.password, fieldId: FIELD } };
const reserved = (status: 'pending' | 'accepted') => ({ description: RESERVED, parameters: { id: RESERVATION, ...SLOT, ...ACCOUNT, status } });
// k6 counts a page only when it has a first item.
const page = { items: M.eachLike({ id: M.integer(1) }) };

type Body = V3Interaction['withRequest']['body'];
const interactions: V3Interaction[] = [
  {
    states: [{ description: NO_ACCOUNT, parameters: { username: ACCOUNT.username } }],
    uponReceiving: 'signUp',
    withRequest: {
      method: 'POST',
      path: '/sports/users',
      headers: json,
      body: { username: ACCOUNT.username, password: ACCOUNT.password, name: 'Bench', surname: 'User' },
    },
    willRespondWith: { status: 201, headers: timing, body: { username: ACCOUNT.username } },
  },
  {
    states: [accountState],
    uponReceiving: 'login',
    withRequest: { method: 'POST', path: '/sports/login', headers: json, body: ACCOUNT },
    willRespondWith: { status: 200, headers: timing, body: { token: M.string(EXAMPLE_TOKEN.user) } },
  },
  {
    states: [ownerState],
    uponReceiving: 'login as an owner (setup and create-facilities)',
    withRequest: { method: 'POST', path: '/sports/login', headers: json, body: { username: OWNER.username, password: OWNER.password } },
    willRespondWith: { status: 200, headers: timing, body: { token: M.string(EXAMPLE_TOKEN.owner) } },
  },
  {
    states: [accountState],
    uponReceiving: 'listFacilities',
    withRequest: { method: 'GET', path: '/sports/sports-facilities', query: { page: '1' }, headers: bearer('user') },
    willRespondWith: { status: 200, headers: timing, body: page },
  },
  {
    states: [accountState],
    uponReceiving: 'listFields',
    withRequest: { method: 'GET', path: '/sports/sports-fields', query: { page: '1' }, headers: bearer('user') },
    willRespondWith: { status: 200, headers: timing, body: page },
  },
  {
    states: [ownerState, { description: NO_FIELD, parameters: { facilityId: OWNER.facilities[0]!, name: FIELD_NAME } }],
    uponReceiving: 'createField',
    withRequest: {
      method: 'POST',
      path: `/sports/sports-facilities/${OWNER.facilities[0]!}/sports-field`,
      headers: { ...json, ...bearer('owner') },
      body: { name: FIELD_NAME, sport: 'padel', pricePerHour: 20 },
    },
    willRespondWith: { status: 201, headers: timing, body: { facilityId: OWNER.facilities[0]! } },
  },
  {
    states: [accountState, { description: FREE_SLOT, parameters: SLOT }],
    uponReceiving: 'reserve',
    withRequest: { method: 'POST', path: '/sports/reservations', headers: { ...json, ...bearer('user') }, body: SLOT as Body },
    willRespondWith: { status: 201, headers: timing, body: { id: M.integer(RESERVATION), status: 'pending' } },
  },
  {
    states: [ownerState, reserved('pending')],
    uponReceiving: 'accept',
    withRequest: { method: 'PUT', path: `/sports/reservations/${RESERVATION}/status`, headers: { ...json, ...bearer('owner') }, body: { status: 'accepted' } },
    willRespondWith: { status: 200, headers: timing, body: { status: 'accepted' } },
  },
  {
    states: [accountState, reserved('accepted')],
    uponReceiving: 'rate',
    withRequest: {
      method: 'POST',
      path: `/sports/reservations/${RESERVATION}/rating`,
      headers: { ...json, ...bearer('user') },
      body: { score: 1, comment: 'bench' },
    },
    willRespondWith: { status: 201, headers: timing, body: { score: M.integer(1) } },
  },
];

// One run per group of the scenario, read from the file the benchmark reads: a group whose
// steps change sends requests the pact may not describe, and the consumer test says so.
const { scenario } = await loadSportsScenario(fileURLToPath(new URL('../bench/scenario.yaml', import.meta.url)));
const runs: ConsumerRun[] = Object.entries(scenario.groups).map(([name, group]) => ({
  name,
  env: {
    GROUPS: JSON.stringify({ [name]: group }),
    STAGES: '[]',
    ITERATIONS: 1,
    WARMUP: 0,
    RUN,
    OWNERS: JSON.stringify([OWNER]),
    // The retrieve group's seeded user: the same account as the new ones' (one login interaction).
    USERS: JSON.stringify([ACCOUNT]),
    FIELD_OWNERS: JSON.stringify([OWNER.id]),
  },
}));

async function withDb<T>(ctx: StateContext, f: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl(ctx.databases, 'postgres') });
  await db.connect();
  try {
    return await f(db);
  } finally {
    await db.end();
  }
}

/** A token the implementation accepts: signed with its secret, as its own login would sign one. */
function token(ctx: StateContext, id: number, role: 'user' | 'owner'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role })
    .setSubject(String(id))
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(ctx.jwtSecret));
}

/** Removes a user's reservations (their ratings first), then the user. */
async function dropAccount(db: pg.Client, username: string): Promise<void> {
  const owned = 'SELECT r.id FROM reservation r JOIN app_user u ON u.id = r.user_id WHERE u.username = $1';
  await db.query(`DELETE FROM rating WHERE reservation_id IN (${owned})`, [username]);
  await db.query('DELETE FROM reservation WHERE user_id IN (SELECT id FROM app_user WHERE username = $1)', [username]);
  await db.query('DELETE FROM app_user WHERE username = $1', [username]);
}

/** The account with this password (the seed's bcrypt cost), created or reset; its id. */
async function putAccount(db: pg.Client, p: Readonly<Record<string, unknown>>): Promise<number> {
  const hash = await bcrypt.hash(String(p.password), 10);
  const { rows } = await db.query<{ id: number }>(
    "INSERT INTO app_user (username, password_hash, name, surname, role) VALUES ($1, $2, 'Bench', 'User', 'user') ON CONFLICT (username) DO UPDATE SET password_hash = EXCLUDED.password_hash RETURNING id",
    [String(p.username), hash],
  );
  return rows[0]!.id;
}

/** Frees the slot: reservations of the field overlapping it (and their ratings) are removed, and the reservation id is free. */
async function freeSlot(db: pg.Client, p: Readonly<Record<string, unknown>>, id?: number): Promise<void> {
  const overlapping =
    'SELECT id FROM reservation WHERE (field_id = $1 AND date = $2::date AND int4range(start_hour, end_hour) && int4range($3, $4)) OR id = $5';
  const params = [Number(p.fieldId), String(p.date), Number(p.startHour), Number(p.endHour), id ?? 0];
  await db.query(`DELETE FROM rating WHERE reservation_id IN (${overlapping})`, params);
  await db.query(`DELETE FROM reservation WHERE id IN (${overlapping})`, params);
}

const pactModule: PactModule = {
  interactions,
  runs,
  states: {
    [NO_ACCOUNT]: (ctx, p) => withDb(ctx, (db) => dropAccount(db, String(p.username))),
    [ACCOUNT_EXISTS]: async (ctx, p) => ({ userToken: await token(ctx, await withDb(ctx, (db) => putAccount(db, p)), 'user') }),
    // The seed's owner, checked rather than assumed (it owns the field k6 reserves), with a known password.
    [OWNER_EXISTS]: (ctx, p) =>
      withDb(ctx, async (db) => {
        const { rows } = await db.query(
          "SELECT u.username FROM app_user u JOIN sports_facility fa ON fa.owner_id = u.id JOIN sports_field f ON f.facility_id = fa.id WHERE u.id = $1 AND u.role = 'owner' AND f.id = $2",
          [Number(p.id), Number(p.fieldId)],
        );
        if (rows[0]?.username !== p.username)
          throw new Error(`the sports seed has no owner ${String(p.username)} (id ${String(p.id)}) of field ${String(p.fieldId)}`);
        await db.query('UPDATE app_user SET password_hash = $2 WHERE id = $1', [Number(p.id), await bcrypt.hash(String(p.password), 10)]);
        return { ownerToken: await token(ctx, Number(p.id), 'owner') };
      }),
    [NO_FIELD]: (ctx, p) =>
      withDb(ctx, async (db) => {
        const field = 'SELECT id FROM sports_field WHERE facility_id = $1 AND name = $2';
        await db.query(`DELETE FROM rating WHERE reservation_id IN (SELECT id FROM reservation WHERE field_id IN (${field}))`, [
          Number(p.facilityId),
          String(p.name),
        ]);
        await db.query(`DELETE FROM reservation WHERE field_id IN (${field})`, [Number(p.facilityId), String(p.name)]);
        await db.query('DELETE FROM sports_field WHERE facility_id = $1 AND name = $2', [Number(p.facilityId), String(p.name)]);
      }),
    [FREE_SLOT]: (ctx, p) => withDb(ctx, (db) => freeSlot(db, p)),
    // Written directly under the id the mock answered, unrated, with the given status.
    [RESERVED]: (ctx, p) =>
      withDb(ctx, async (db) => {
        const userId = await putAccount(db, p);
        await freeSlot(db, p, Number(p.id));
        await db.query('INSERT INTO reservation (id, field_id, user_id, date, start_hour, end_hour, status) VALUES ($1, $2, $3, $4::date, $5, $6, $7)', [
          Number(p.id),
          Number(p.fieldId),
          userId,
          String(p.date),
          Number(p.startHour),
          Number(p.endHour),
          String(p.status),
        ]);
        return { userToken: await token(ctx, userId, 'user') };
      }),
  },
};
export default pactModule;
