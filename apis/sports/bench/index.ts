// The sports benchmark: scenario.yaml's five user groups on the paper's ramp, the paper-scale
// seed loaded fresh before every repetition, k6.js against the implementation, and the same
// groups' statements alone in two tiers: through the pg driver with the implementations' pool
// (baseline.ts, the driver tier) and as pgbench scripts (native.ts, the native tier).
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import { type BenchModule, startBaselineClient, type RunSettings, checkChoices, selectCases, withNativeTier } from '@fairbench/bench/plugin.ts';
import type { SportsDataset } from '../dataset/model.ts';
import type { SportsBaselineConfig } from './baseline.ts';
import type { SportsNativeConfig } from './native.ts';
import { durationScale, expandSports, loadSportsScenario, type SportsCase } from './scenario.ts';

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));
const NATIVE = fileURLToPath(new URL('./native.ts', import.meta.url));
// The retrieve group logs in as these many seeded users (kept small: they travel in k6's environment).
const SEEDED_USERS = 100;

let repetitionCounter = 0;
function runPrefix(): string {
  repetitionCounter++;
  return `${(Date.now() % 36 ** 5).toString(36)}${repetitionCounter.toString(36)}`;
}

/** The seeded accounts and field owners the load needs, from the seed. */
export function accounts(data: SportsDataset) {
  const t = data.tables;
  const owners = t.app_user
    .filter((u) => u.role === 'owner')
    .map((u) => ({
      id: u.id,
      username: u.username,
      password: data.passwords.get(u.id)!,
      facilities: t.sports_facility.filter((f) => f.owner_id === u.id).map((f) => f.id),
    }));
  const users = t.app_user
    .filter((u) => u.role === 'user')
    .slice(0, SEEDED_USERS)
    .map((u) => ({ username: u.username, password: data.passwords.get(u.id)! }));
  const fieldOwners = t.sports_field.map((f) => t.sports_facility[f.facility_id - 1]!.owner_id);
  return { owners, users, fieldOwners };
}

/**
 * The seed's shape the pgbench scripts compute ids from (native.ts): owner n is app_user n
 * ('owner<n>'), user n is 'user<n>', each owner's facilities and each facility's fields consecutive.
 */
export function nativeShape(data: SportsDataset): Pick<SportsNativeConfig, 'owners' | 'users' | 'facilitiesPerOwner' | 'fieldsPerFacility'> {
  const { owners, users, facilitiesPerOwner, fieldsPerFacility } = data.scale;
  const t = data.tables;
  const ok =
    t.app_user.every((u) => u.username === (u.id <= owners ? `owner${u.id}` : `user${u.id - owners}`)) &&
    t.sports_facility.every((f) => f.owner_id === Math.floor((f.id - 1) / facilitiesPerOwner) + 1) &&
    t.sports_field.every((f) => f.facility_id === Math.floor((f.id - 1) / fieldsPerFacility) + 1);
  if (!ok) throw new Error("sports native tier: the seed's ids are not laid out as native.ts's pgbench scripts compute them");
  return { owners, users, facilitiesPerOwner, fieldsPerFacility };
}

const sportsBench: BenchModule<SportsCase, SportsDataset> = {
  tiers: ['native', 'driver', 'http'],
  async plan(selection, scenarioFile) {
    checkChoices('MODEL', selection.models, ['closed'], 'sports');
    const { scenario, text } = await loadSportsScenario(scenarioFile);
    const cases = selectCases(
      withNativeTier(expandSports(scenario, { quick: selection.quick ?? false, scale: durationScale(process.env['DURATION_SCALE']) })),
      selection,
    );
    return { cases, models: ['closed'], text };
  },
  prepare(seeded, databases) {
    const { owners, users, fieldOwners } = accounts(seeded.data);
    const postgresUrl = databaseUrl(databases, 'postgres');
    const shape = nativeShape(seeded.data);
    return {
      k6Env: (c, s) => ({
        GROUPS: JSON.stringify(c.groups),
        STAGES: JSON.stringify(c.stages),
        WARMUP: s.warmupSeconds,
        RUN: runPrefix(),
        OWNERS: JSON.stringify(owners),
        USERS: JSON.stringify(users),
        FIELD_OWNERS: JSON.stringify(fieldOwners),
        OVER_TIME_SECONDS: c.overTimeSeconds,
        SECONDS: c.seconds,
        APDEX_T_MS: c.apdex.tMs,
        APDEX_F_MS: c.apdex.fMs,
        ...(c.stress ? { STRESS: JSON.stringify(c.stress) } : {}),
      }),
      startBaseline: (c, s, opts) => {
        if (c.tier === 'native') {
          const native: SportsNativeConfig = { postgresUrl, warmupSeconds: s.warmupSeconds, groups: c.groups, stages: c.stages, ...shape };
          return startBaselineClient(NATIVE, native, c.id, opts);
        }
        const config: SportsBaselineConfig = {
          postgresUrl,
          poolSize: opts.poolSize,
          warmupSeconds: s.warmupSeconds,
          groups: c.groups,
          stages: c.stages,
          owners,
          users,
          fieldOwners,
          prefix: runPrefix(),
        };
        return startBaselineClient(BASELINE, config, c.id, opts);
      },
    };
  },
  // setup's owner logins, the warm-up, the ramp (the stress test's cap), k6's graceful stops, the recovery check, and a margin.
  limitSeconds: (c, s: RunSettings) => 120 + s.warmupSeconds + c.seconds + 30 + (c.stress?.recovery.withinSeconds ?? 0) + 60,
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + c.seconds,
};
export default sportsBench;
