// The sports API's native tier: each user group's flow as a pgbench script (PostgreSQL's own
// client, libpq, extended protocol as node-pg sends parameterised queries) with the
// statements baseline.ts and the implementations run for its requests — the caller's lookup,
// the existence and ownership reads, the writes — and no bcrypt (a native tier measures the
// database alone: sign-up stores a fixed hash, login reads it). The ramp is followed second by
// second: one pgbench run per stretch of constant users (groups × the ramp's users then), each
// client picking a group's script at random, equally weighted. A transaction is one flow: it
// counts as that flow's number of requests, each of its latency / that number.
// A process of its own, pinned by the runner:  node native.ts <config.json> <out.json>
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientArgs, runNative, parsePgbenchLog, pgbenchOutput, type PgbenchTransaction } from '@fairbench/bench/plugin.ts';
import type { Group, Stage, Step } from './scenario.ts';

export interface SportsNativeConfig {
  readonly postgresUrl: string;
  readonly warmupSeconds: number;
  readonly groups: Readonly<Record<string, Group>>;
  readonly stages: readonly Stage[];
  /** The seed's shape: owners own facilitiesPerOwner consecutive facilities, each of fieldsPerFacility consecutive fields. */
  readonly owners: number;
  readonly users: number;
  readonly facilitiesPerOwner: number;
  readonly fieldsPerFacility: number;
}

// Any 60 characters fit password_hash char(60); nothing compares it here.
const HASH = `$2b$10$${'n'.repeat(53)}`;
const CALLER = 'SELECT id, username, name, surname, role FROM app_user WHERE id = :uid;';

/** The statements of one request of a flow (baseline.ts's, as pgbench commands). */
const STEPS: Record<Step, (account: Group['account']) => string[]> = {
  signUp: () => [
    `INSERT INTO app_user (username, password_hash, name, surname, role) VALUES ('p' || :slot::text, '${HASH}', 'Bench', 'User', 'user') RETURNING id;`,
  ],
  login: (account) => [
    `SELECT id, role, password_hash FROM app_user WHERE username = ${account === 'owner' ? "'owner' || :o::text" : account === 'seeded' ? "'user' || :u::text" : "'p' || :slot::text"} \\gset l_`,
    '\\set uid :l_id',
  ],
  listFacilities: () => [
    '\\set off 20 * (:k % 5)',
    CALLER,
    'SELECT id, name, city, address, owner_id FROM sports_facility ORDER BY id LIMIT 20 OFFSET :off;',
    'SELECT COUNT(*) FROM sports_facility;',
  ],
  listFields: () => [
    '\\set off 20 * (:k % 20)',
    CALLER,
    'SELECT id, facility_id, name, sport, price_per_hour FROM sports_field ORDER BY id LIMIT 20 OFFSET :off;',
    'SELECT COUNT(*) FROM sports_field;',
  ],
  createField: () => [
    '\\set fac (:o - 1) * :fpo + 1 + :k % :fpo',
    CALLER,
    'SELECT id, owner_id FROM sports_facility WHERE id = :fac;',
    "INSERT INTO sports_field (facility_id, name, sport, price_per_hour) VALUES (:fac, 'F' || :slot::text, 'padel', 20) RETURNING id;",
  ],
  // (field, day) is unique per slot: no two reservations overlap.
  reserve: () => [
    '\\set field 1 + :slot % :fields',
    '\\set day (:slot / :fields) % 2000000000',
    CALLER,
    'SELECT id FROM sports_field WHERE id = :field;',
    "INSERT INTO reservation (field_id, user_id, date, start_hour, end_hour) VALUES (:field, :uid, DATE '2100-01-01' + :day::int, 6, 7) RETURNING id \\gset r_",
  ],
  accept: () => [
    '\\set owner 1 + ((:field - 1) / :fpf) / :fpo',
    'SELECT id, username, name, surname, role FROM app_user WHERE id = :owner;',
    'SELECT r.id, fa.owner_id FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id WHERE r.id = :r_id;',
    "UPDATE reservation SET status = 'accepted' WHERE id = :r_id AND status = 'pending' RETURNING id;",
  ],
  rate: () => [
    '\\set score 1 + :k % 5',
    CALLER,
    'SELECT r.id, r.user_id, r.status, fa.owner_id FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id WHERE r.id = :r_id;',
    "INSERT INTO rating (reservation_id, score, comment) VALUES (:r_id, :score, 'bench');",
  ],
};

/**
 * One group's flow as a pgbench script. :k counts the client's iterations (-D k=0; pgbench keeps
 * a client's variables across transactions) and :slot is unique per run, iteration, client and
 * group, for new usernames, field names and reservation days.
 */
export function groupScript(group: Group, index: number, groupCount: number): string {
  const lines = [
    '\\set k :k + 1',
    `\\set slot ((:run * 1000000 + :k) * 1000 + :client_id) * ${groupCount} + ${index}`,
    ...(group.account === 'owner' ? ['\\set o random(1, :owners)'] : group.account === 'seeded' ? ['\\set u random(1, :users)'] : []),
    ...group.steps.flatMap((s) => STEPS[s](group.account)),
  ];
  return lines.join('\n') + '\n';
}

/** k6 ramping-vus's users per group at time t (linear within a stage), as baseline.ts computes them; -1 past the end. */
export function usersAt(stages: readonly Stage[], t: number): number {
  let from = 0;
  let start = 0;
  for (const s of stages) {
    if (t < start + s.seconds) return from + ((s.target - from) * (t - start)) / s.seconds;
    from = s.target;
    start += s.seconds;
  }
  return -1;
}

/** The ramp in whole seconds (users at each second's middle), equal neighbours merged: one pgbench run each. */
export function rampSegments(stages: readonly Stage[], groups: number): { clients: number; seconds: number }[] {
  const total = Math.round(stages.reduce((a, s) => a + s.seconds, 0));
  const segments: { clients: number; seconds: number }[] = [];
  for (let t = 0; t < total; t++) {
    const clients = Math.max(0, Math.round(usersAt(stages, t + 0.5))) * groups;
    const last = segments.at(-1);
    if (last && last.clients === clients) last.seconds++;
    else segments.push({ clients, seconds: 1 });
  }
  return segments;
}

function pgbenchArgs(c: SportsNativeConfig, scripts: readonly string[], run: number, clients: number, seconds: number, logPrefix?: string): string[] {
  const url = new URL(c.postgresUrl);
  const fields = c.owners * c.facilitiesPerOwner * c.fieldsPerFacility;
  const vars = { run, k: 0, owners: c.owners, users: c.users, fields, fpo: c.facilitiesPerOwner, fpf: c.fieldsPerFacility };
  return [
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username),
    '-n',
    '-M',
    'extended',
    '-c',
    String(clients),
    '-j',
    '1',
    '-T',
    String(seconds),
    ...Object.entries(vars).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    ...scripts.flatMap((s) => ['-f', `${s}@1`]),
    ...(logPrefix ? ['-l', `--log-prefix=${logPrefix}`] : []),
    decodeURIComponent(url.pathname.slice(1)),
  ];
}

async function main(): Promise<void> {
  const { config, out } = await clientArgs<SportsNativeConfig>();
  const names = Object.keys(config.groups);
  const dir = await mkdtemp(join(tmpdir(), 'fairbench-pgbench-'));
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(new URL(config.postgresUrl).password) };
  try {
    const scripts = await Promise.all(
      names.map(async (name, i) => {
        const file = join(dir, `${name}.sql`);
        await writeFile(file, groupScript(config.groups[name]!, i, names.length));
        return file;
      }),
    );
    let run = 0;
    // The warm-up: one client, as baseline.ts warms up with one flow at a time.
    if (config.warmupSeconds > 0) await runNative('pgbench', pgbenchArgs(config, scripts, run++, 1, config.warmupSeconds), undefined, env);
    const measureFrom = Date.now();
    for (const s of rampSegments(config.stages, names.length)) {
      if (s.clients === 0) await new Promise((r) => setTimeout(r, s.seconds * 1000));
      else await runNative('pgbench', pgbenchArgs(config, scripts, run, s.clients, s.seconds, join(dir, `run${run}`)), undefined, env);
      run++;
    }
    const measureUntil = Date.now();
    const txs: PgbenchTransaction[] = [];
    for (const f of (await readdir(dir)).filter((f) => f.startsWith('run'))) txs.push(...parsePgbenchLog(await readFile(join(dir, f), 'utf8')));
    const requestsPerScript = names.map((n) => config.groups[n]!.steps.length);
    await writeFile(out, JSON.stringify(pgbenchOutput(txs, requestsPerScript, measureFrom, measureUntil)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
