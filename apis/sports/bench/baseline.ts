// The sports API's database-alone client: each group's requests as the statements an
// implementation runs for them (the caller's lookup on every authenticated request, the
// existence and ownership reads, the write), straight through the pg driver with the same
// pool size and the same ramp of users repeating their group, no HTTP, no framework, no
// tokens. bcrypt (cost 10) is paid where the API pays it (sign-up, login) and timed apart.
// Started by the runner as its own process:  node baseline.ts <config.json> <out.json>
import bcrypt from 'bcrypt';
import pg from 'pg';
import { clientArgs, part, Recorder, sleep } from '@fairbench/bench/plugin.ts';
import type { Group, Stage, Step } from './scenario.ts';

export interface SportsBaselineConfig {
  readonly postgresUrl: string;
  readonly poolSize: number;
  readonly warmupSeconds: number;
  readonly groups: Readonly<Record<string, Group>>;
  readonly stages: readonly Stage[];
  readonly owners: readonly { id: number; username: string; password: string; facilities: number[] }[];
  readonly users: readonly { username: string; password: string }[];
  readonly fieldOwners: readonly number[];
  readonly prefix: string;
}

const { config: c, out } = await clientArgs<SportsBaselineConfig>();
const pool = new pg.Pool({ connectionString: c.postgresUrl, max: c.poolSize });
pool.on('error', () => {});
const recorder = new Recorder();
const names = Object.keys(c.groups);
const DAYS = 25000;
const FIRST_DAY = Date.UTC(2030, 0, 1);
const q = (sql: string, params: unknown[]) => pool.query(sql, params);

interface Ctx {
  k: number;
  tag: string;
  slot: number;
  username: string;
  password: string;
  owner?: SportsBaselineConfig['owners'][number];
  userId?: number;
  fieldId?: number;
  reservationId?: number;
}

/** What the implementations run for the caller of an authenticated request. */
const caller = (ctx: Ctx) => q('SELECT id, username, name, surname, role FROM app_user WHERE id = $1', [ctx.userId]);

async function step(op: Step, ctx: Ctx): Promise<boolean> {
  return recorder.timed(op, async (report) => {
    switch (op) {
      case 'signUp': {
        const hash = await part(report, 'bcrypt', () => bcrypt.hash(ctx.password, 10));
        await part(report, 'database', () =>
          q("INSERT INTO app_user (username, password_hash, name, surname, role) VALUES ($1, $2, 'Bench', 'User', 'user') RETURNING id", [ctx.username, hash]),
        );
        return true;
      }
      case 'login': {
        const found = await part(report, 'database', () => q('SELECT id, role, password_hash FROM app_user WHERE username = $1', [ctx.username]));
        const row = found.rows[0];
        if (!row) return false;
        ctx.userId = row.id;
        return part(report, 'bcrypt', () => bcrypt.compare(ctx.password, row.password_hash));
      }
      case 'listFacilities': {
        await caller(ctx);
        const [items] = await Promise.all([
          q('SELECT id, name, city, address, owner_id FROM sports_facility ORDER BY id LIMIT 20 OFFSET $1', [(ctx.k % 5) * 20]),
          q('SELECT COUNT(*) FROM sports_facility', []),
        ]);
        return items.rows.length > 0;
      }
      case 'listFields': {
        await caller(ctx);
        const [items] = await Promise.all([
          q('SELECT id, facility_id, name, sport, price_per_hour FROM sports_field ORDER BY id LIMIT 20 OFFSET $1', [(ctx.k % 20) * 20]),
          q('SELECT COUNT(*) FROM sports_field', []),
        ]);
        return items.rows.length > 0;
      }
      case 'createField': {
        await caller(ctx);
        const facility = ctx.owner!.facilities[ctx.k % ctx.owner!.facilities.length]!;
        await q('SELECT id, owner_id FROM sports_facility WHERE id = $1', [facility]);
        await q("INSERT INTO sports_field (facility_id, name, sport, price_per_hour) VALUES ($1, $2, 'padel', 20) RETURNING id", [
          facility,
          `F${c.prefix}${ctx.tag}`,
        ]);
        return true;
      }
      case 'reserve': {
        await caller(ctx);
        ctx.fieldId = 1 + Math.floor(Math.random() * c.fieldOwners.length);
        const date = new Date(FIRST_DAY + (ctx.slot % DAYS) * 86400000).toISOString().slice(0, 10);
        const start = 6 + (Math.floor(ctx.slot / DAYS) % 16);
        await q('SELECT id FROM sports_field WHERE id = $1', [ctx.fieldId]);
        const r = await q('INSERT INTO reservation (field_id, user_id, date, start_hour, end_hour) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
          ctx.fieldId,
          ctx.userId,
          date,
          start,
          start + 1,
        ]);
        ctx.reservationId = r.rows[0].id;
        return true;
      }
      case 'accept': {
        await q('SELECT id, username, name, surname, role FROM app_user WHERE id = $1', [c.fieldOwners[ctx.fieldId! - 1]]);
        await q(
          'SELECT r.id, fa.owner_id FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id WHERE r.id = $1',
          [ctx.reservationId],
        );
        return (await q("UPDATE reservation SET status = 'accepted' WHERE id = $1 AND status = 'pending' RETURNING id", [ctx.reservationId])).rowCount === 1;
      }
      case 'rate': {
        await caller(ctx);
        await q(
          'SELECT r.id, r.user_id, r.status, fa.owner_id FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id WHERE r.id = $1',
          [ctx.reservationId],
        );
        await q("INSERT INTO rating (reservation_id, score, comment) VALUES ($1, $2, 'bench')", [ctx.reservationId, 1 + (ctx.k % 5)]);
        return true;
      }
    }
  });
}

const counters = new Map<string, number>(names.map((n) => [n, 0]));
async function iteration(name: string, phase: 'w' | 'm'): Promise<void> {
  const group = c.groups[name]!;
  const g = names.indexOf(name);
  const k = counters.get(name)!;
  counters.set(name, k + 1);
  const tag = `${phase}${g}x${k}`;
  const ctx: Ctx = { k, tag, slot: k * names.length + g + (phase === 'w' ? DAYS * 15 : 0), username: `s${c.prefix}${tag}`, password: 'bench-password-1' };
  if (group.account === 'seeded') Object.assign(ctx, c.users[k % c.users.length]);
  if (group.account === 'owner') {
    const owner = c.owners[k % c.owners.length]!;
    Object.assign(ctx, { owner, username: owner.username, password: owner.password });
  }
  for (const s of group.steps) if (!(await step(s, ctx))) return;
}

/** k6 ramping-vus: users move linearly from one stage's target to the next. */
function target(elapsedSeconds: number): number {
  let from = 0;
  let t = 0;
  for (const s of c.stages) {
    if (elapsedSeconds < t + s.seconds) return Math.round(from + ((s.target - from) * (elapsedSeconds - t)) / s.seconds);
    from = s.target;
    t += s.seconds;
  }
  return -1; // past the last stage: stop
}

const measureFrom = Date.now() + c.warmupSeconds * 1000;
for (let i = 0; Date.now() < measureFrom; i++) await iteration(names[i % names.length]!, 'w');
recorder.measuring = true;
const start = performance.now();
const running = new Map<string, Promise<void>>();
const elapsed = () => (performance.now() - start) / 1000;
// One loop per (group, user index), alive while the ramp keeps that many users.
async function user(name: string, index: number): Promise<void> {
  while (target(elapsed()) > index) await iteration(name, 'm');
}
for (;;) {
  const want = target(elapsed());
  if (want < 0) break;
  for (const name of names) {
    for (let i = 0; i < want; i++) {
      const key = `${name}/${i}`;
      if (!running.has(key))
        running.set(
          key,
          user(name, i).finally(() => running.delete(key)),
        );
    }
  }
  await sleep(100);
}
recorder.measuring = false;
const measureUntil = Date.now();
await Promise.race([Promise.all(running.values()), sleep(10_000)]);
await pool.end().catch(() => {});
await recorder.write(out, { from: measureFrom, until: measureUntil });
process.exit(0);
