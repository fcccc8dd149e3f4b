// The tpcc benchmark: scenario.yaml's payment matrix, standard mix and single transactions,
// k6.js against the implementation (inputs drawn as TPC-C terminals draw them), go-tpc as the
// database-alone limit at every point (baseline.ts), and TPC-C's consistency conditions
// checked after every repetition: one that breaks them is recorded as invalid.
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import { cacheDir } from '@fairbench/harness/paths.ts';
import { type BenchModule, startBaselineClient, type RunSettings, checkChoices, selectCases } from '@fairbench/bench/plugin.ts';
import { consistencyViolations } from '../dataset/consistency.ts';
import type { TpccDataset } from '../dataset/model.ts';
import type { TpccBaselineConfig } from './baseline.ts';
import { TRANSACTIONS, defaultModels, expandCases, loadScenario, type Model, type TpccCase } from './scenario.ts';

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));
const GO_TPC = `${cacheDir}/bin/go-tpc`;

/** A fixed number of requests: at most this long (the slowest rate seen here, 300 req/s, with room). */
const secondsFor = (requests: number) => Math.ceil(requests / 100) + 60;

const tpccBench: BenchModule<TpccCase, TpccDataset> = {
  tiers: ['native', 'http'],
  async plan(selection, scenarioFile) {
    const { scenario, text } = await loadScenario(scenarioFile);
    checkChoices('MODEL', selection.models, ['closed', 'sequential'], 'tpcc');
    checkChoices('PROTOCOL', selection.protocols, ['rest'], 'tpcc');
    const models = (selection.models as Model[] | undefined) ?? defaultModels(scenario);
    // go-tpc is the native tier; there is no driver tier (a mysql2 client of the five transactions would be a second TPC-C implementation).
    const cases = expandCases(scenario, models, selection.quick ?? false).map((c) => (c.protocol === 'database' ? { ...c, tier: 'native' as const } : c));
    return { cases: selectCases(cases, selection), models, text };
  },
  prepare(seeded, databases) {
    const mysqlUrl = databaseUrl(databases, 'mysql');
    const { scale, cLoad } = seeded.data;
    const weights = (c: TpccCase) => TRANSACTIONS.map((t) => c.weights[t]);
    return {
      k6Env: (c, s) => ({
        WEIGHTS: weights(c).join(','),
        VUS: c.vus,
        REQUESTS: c.requests ?? 0,
        MAX_SECONDS: c.requests === undefined ? s.durationSeconds : secondsFor(c.requests),
        WARMUP: s.warmupSeconds,
        DURATION: s.durationSeconds,
        WAREHOUSES: scale.warehouses,
        ITEMS: scale.items,
        CUSTOMERS: scale.customersPerDistrict,
        LAST_NAMES: scale.lastNames,
        C_LOAD: cLoad,
        SEED: s.seed,
      }),
      startBaseline: (c, s, opts) => {
        const config: TpccBaselineConfig = {
          goTpc: GO_TPC,
          mysqlUrl,
          threads: c.vus,
          weights: weights(c),
          ...(c.requests !== undefined ? { requests: c.requests } : {}),
          warmupSeconds: s.warmupSeconds,
          durationSeconds: s.durationSeconds,
          warehouses: scale.warehouses,
        };
        return startBaselineClient(BASELINE, config, c.id, opts);
      },
      async afterRepetition() {
        const db = await mysql.createConnection(mysqlUrl);
        try {
          return await consistencyViolations(db);
        } finally {
          await db.end();
        }
      },
    };
  },
  limitSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.requests !== undefined ? secondsFor(c.requests) : s.durationSeconds) + 60,
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.plannedSeconds ?? s.durationSeconds),
};
export default tpccBench;
