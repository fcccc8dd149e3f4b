// The forum benchmark (APIS.md §1): bench/scenarios/forum.yaml's matrix, the paper's
// data set in MariaDB, bench/k6/forum.js, and the SQL baseline through mysql2.
import { generateForum } from '@fairbench/db/forum/generate.ts';
import { fingerprintForum } from '@fairbench/db/forum/fingerprint.ts';
import { loadForum } from '@fairbench/db/forum/load-mysql.ts';
import { PAPER_SCALE } from '@fairbench/db/forum/model.ts';
import { startBaseline } from '../../baseline/run.ts';
import type { LoadSettings, RunSettings } from '../../k6.ts';
import { caseParameters, defaultModels, expandCases, filterCases, loadScenario, scenarioPath, type Case, type Model } from '../../scenario.ts';
import type { BenchApi, PlannedCase } from '../types.ts';

export interface ForumCase extends PlannedCase {
  readonly forum: Case;
}

export const forumBench: BenchApi<ForumCase> = {
  name: 'forum',
  database: 'mysql',
  async plan(selection) {
    const file = scenarioPath('forum');
    const { scenario, text } = await loadScenario(file);
    for (const m of selection.models ?? []) if (m !== 'closed' && m !== 'open') throw new Error(`MODEL must be closed or open for forum, got '${m}'`);
    for (const p of selection.protocols ?? []) if (p !== 'rest' && p !== 'graphql') throw new Error(`PROTOCOL must be rest or graphql, got '${p}'`);
    const models = (selection.models as Model[] | undefined) ?? defaultModels(scenario);
    const cases = filterCases(expandCases(scenario, models), {
      ...(selection.protocols ? { protocols: selection.protocols } : {}),
      ...(selection.cases ? { cases: selection.cases } : {}),
    }).map((c) => ({ id: c.id, protocol: c.protocol, model: c.model, parameters: caseParameters(c), forum: c }));
    return { cases, models, file, text, script: scenario.script };
  },
  async prepare(db) {
    const data = generateForum(PAPER_SCALE);
    const load = await loadForum(db.url, data);
    console.log(`seeded forum: ${Object.entries(load.rows).map(([t, n]) => `${n} ${t}`).join(', ')} in ${Math.round(load.milliseconds)} ms`);
    const ids = { comment: data.comments.length, user: data.users.length };
    const withIds = (s: RunSettings): LoadSettings => ({ ...s, ids });
    return {
      dataset: { name: 'forum', seed: PAPER_SCALE.seed, scale: { ...PAPER_SCALE }, fingerprint: fingerprintForum(data), rows: load.rows, loadMs: Math.round(load.milliseconds) },
      k6Env: ({ forum: c }, s) => forumK6Env(c, withIds(s)),
      startBaseline: ({ forum: c }, s, opts) => startBaseline(c, db.url, opts.poolSize, withIds(s), opts),
    };
  },
  limitSeconds: (_c, s) => s.warmupSeconds + s.durationSeconds + 60,
  plannedSeconds: (_c, s) => s.warmupSeconds + s.durationSeconds,
};

/** bench/k6/forum.js's environment for one repetition of a case (BASE_URL aside). */
export function forumK6Env(c: Case, settings: LoadSettings): Record<string, string | number> {
  return {
    PROTOCOL: c.protocol,
    ROWS: c.rows,
    JOINS: c.joins,
    MODEL: c.model,
    VUS: c.concurrency,
    RATE: c.rate ?? 0,
    WARMUP: settings.warmupSeconds,
    DURATION: settings.durationSeconds,
    COMMENT_IDS: settings.ids.comment,
    USER_IDS: settings.ids.user,
    SEED: settings.seed,
  };
}
