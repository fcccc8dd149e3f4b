// The forum benchmark: scenario.yaml's matrix (the paper's 18 points × REST and GraphQL,
// closed or open model), k6.js against the implementation, and each case's SQL alone in two
// tiers: through mysql2 with the implementations' pool (baseline.ts, the driver tier, the
// `database` case) and through sysbench (native.ts + native.lua, the native tier).
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import {
  type BenchModule,
  type PlannedCase,
  type WrkLoad,
  startBaselineClient,
  type RunSettings,
  checkChoices,
  selectCases,
  withNativeTier,
} from '@fairbench/bench/plugin.ts';
import type { ForumDataset } from '../dataset/model.ts';
import type { ForumBaselineConfig } from './baseline.ts';
import type { ForumNativeConfig } from './native.ts';
import { caseParameters, defaultModels, expandCases, loadScenario, type Case, type Model } from './scenario.ts';

export interface ForumCase extends PlannedCase {
  readonly forum: Case;
}

/** The data set's id ranges (1..n) the k6 script and the baseline draw from. */
export interface IdRanges {
  readonly comment: number;
  readonly user: number;
}

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));
const NATIVE = fileURLToPath(new URL('./native.ts', import.meta.url));

const forumBench: BenchModule<ForumCase, ForumDataset> = {
  tiers: ['native', 'driver', 'http'],
  async plan(selection, scenarioFile) {
    const { scenario, text } = await loadScenario(scenarioFile);
    checkChoices('MODEL', selection.models, ['closed', 'open'], 'forum');
    checkChoices('PROTOCOL', selection.protocols, ['rest', 'graphql'], 'forum');
    const models = (selection.models as Model[] | undefined) ?? defaultModels(scenario);
    const all = expandCases(scenario, models).map((c) => ({
      id: c.id,
      protocol: c.protocol,
      model: c.model,
      point: c.point,
      parameters: caseParameters(c),
      forum: c,
    }));
    return { cases: selectCases(withNativeTier(all), selection), models, text };
  },
  prepare(seeded, databases) {
    const ids: IdRanges = { comment: seeded.data.comments.length, user: seeded.data.users.length };
    const mysqlUrl = databaseUrl(databases, 'mysql');
    return {
      k6Env: ({ forum: c }, s) => forumK6Env(c, s, ids),
      startBaseline: ({ forum: c, id, tier }, s, opts) => {
        if (tier === 'native') return startBaselineClient(NATIVE, forumNativeConfig(c, s, mysqlUrl, ids, opts.poolSize), id, opts);
        const config: ForumBaselineConfig = {
          mysqlUrl,
          poolSize: opts.poolSize,
          sql: c.operation.sql,
          args: c.operation.args,
          rows: c.rows,
          model: c.model,
          concurrency: c.concurrency,
          ...(c.rate !== undefined ? { rate: c.rate } : {}),
          warmupSeconds: s.warmupSeconds,
          durationSeconds: s.durationSeconds,
          seed: s.seed,
          ids,
        };
        return startBaselineClient(BASELINE, config, id, opts);
      },
      wrkLoad: ({ forum: c }, s) => forumWrkLoad(c, s, ids),
    };
  },
  limitSeconds: (_c, s) => s.warmupSeconds + s.durationSeconds + 60,
  plannedSeconds: (_c, s) => s.warmupSeconds + s.durationSeconds,
};
export default forumBench;

/** native.ts's config: as many sysbench connections as the case keeps queries in flight at the database (its concurrency, at most the pool). */
export function forumNativeConfig(c: Case, s: RunSettings, mysqlUrl: string, ids: IdRanges, poolSize: number): ForumNativeConfig {
  return {
    mysqlUrl,
    sql: c.operation.sql,
    args: c.operation.args,
    rows: c.rows,
    model: c.model,
    threads: Math.min(c.concurrency, poolSize),
    ...(c.rate !== undefined ? { rate: c.rate } : {}),
    warmupSeconds: s.warmupSeconds,
    durationSeconds: s.durationSeconds,
    seed: s.seed,
    ids,
  };
}

/** k6.js's environment for one repetition of a case (BASE_URL aside). */
export function forumK6Env(c: Case, settings: RunSettings, ids: IdRanges): Record<string, string | number> {
  return {
    PROTOCOL: c.protocol,
    ROWS: c.rows,
    JOINS: c.joins,
    MODEL: c.model,
    VUS: c.concurrency,
    RATE: c.rate ?? 0,
    WARMUP: settings.warmupSeconds,
    DURATION: settings.durationSeconds,
    COMMENT_IDS: ids.comment,
    USER_IDS: ids.user,
    SEED: settings.seed,
  };
}

/**
 * The cross-check's load for a closed REST case: wrk's request() sends the request k6.js
 * sends for the case's rows and joins, the id drawn uniformly from the same range (by
 * Lua's generator, seeded with SEED: the same distribution, not the same stream). GraphQL
 * is left to k6.
 */
export function forumWrkLoad(c: Case, settings: RunSettings, ids: IdRanges): WrkLoad | undefined {
  if (c.protocol !== 'rest' || c.model !== 'closed') return undefined;
  const [path, range] =
    c.rows === 1 && c.joins === 0
      ? ['/comment/%d', ids.comment]
      : c.rows === 1
        ? ['/user/%d/comment', ids.user]
        : c.joins === 0
          ? [`/comments/${c.rows}`, 0]
          : [`/user/%d/comments/${c.rows}`, ids.user];
  const script = range
    ? `math.randomseed(${settings.seed})\nrequest = function()\n  return wrk.format("GET", string.format("${path}", math.random(1, ${range})))\nend\n`
    : `request = function()\n  return wrk.format("GET", "${path}")\nend\n`;
  return { connections: c.concurrency, script };
}
