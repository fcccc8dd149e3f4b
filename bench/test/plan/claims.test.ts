// The papers' claims files: every API's loads and validates, each checkable claim's cases
// exist and its API's `papers` subset runs at least one of them, and the loader refuses a
// claim that contradicts itself.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { stringify } from 'yaml';
import { loadApis, type Api } from '@fairbench/harness/api/manifest.ts';
import { benchApi } from '../../src/plan/apis.ts';
import { plannedSeconds } from '../../src/plan/eta.ts';
import { resolveOptions } from '../../src/plan/options.ts';
import { apiSubset, chooseProfile, profileCases } from '../../src/plan/profiles.ts';
import { planRun, timedSteps } from '../../src/plan/run-plan.ts';
import { loadImplementation } from '@fairbench/harness/impl/manifest.ts';
import { caseMatcher } from '../../src/plan/select.ts';
import { loadAllClaims, loadClaims, measuredByPapers, pairOf, type ClaimsFile } from '../../src/report/papers/claims.ts';
import { readCompact } from '../../src/report/papers/files.ts';

const papers = await loadAllClaims();

test('every API has a claims file, and each validates', async () => {
  const apis = (await loadApis()).map((a) => a.manifest.name);
  assert.deepEqual(
    papers.map((p) => p.api),
    apis,
  );
  for (const p of papers) {
    assert.ok(p.claims.claims.length > 0, p.api);
    assert.ok(p.paper.title && p.paper.authors, `${p.api}: the paper's title and authors come from api.yaml`);
  }
});

test('each checkable claim names cases the API has, and the papers profile runs one of them; request types the cases send', async () => {
  for (const p of papers) {
    const api = await benchApi(p.api);
    const { cases } = await api.module.plan({}, api.scenarioFile);
    const subset = await apiSubset(p.api, 'papers');
    assert.ok(subset, `${p.api}: apis/${p.api}/bench/profiles.yaml has a papers subset`);
    const inSubset = subset.cases.map(caseMatcher);
    for (const claim of p.claims.claims) {
      const matching = cases.filter((c) => c.protocol !== 'database' && c.protocol !== 'native' && caseMatcher(claim.cases)(c.id));
      assert.ok(matching.length > 0, `${p.api} ${claim.id}: no case matches ${claim.cases}`);
      for (const type of claim.requestTypes ?? [])
        assert.ok(
          matching.some((c) => c.requestTypes?.includes(type) ?? true),
          `${p.api} ${claim.id}: no matching case sends ${type}`,
        );
      if (!measuredByPapers(claim)) continue;
      assert.deepEqual(pairOf(p.claims, claim), p.claims.run.pair, `${p.api} ${claim.id}: make papers runs the paper's pair only`);
      assert.ok(
        matching.some((c) => inSubset.some((m) => m(c.id))),
        `${p.api} ${claim.id}: the papers subset runs none of ${claim.cases}`,
      );
    }
  }
});

test("make papers fits its budget: the runner's plan is at most 90 minutes for each paper's pair with the papers profile, and four hours for the five", async () => {
  const { profile, eta } = await chooseProfile('papers', false);
  let seconds = 0;
  for (const p of papers) {
    const api = await benchApi(p.api);
    const { cases: subset, quick, profile: own } = await profileCases(profile, p.api, undefined);
    // As make bench plans it (planRun): whether the API's cases switch slices, its tiers, the options it records.
    const opts = {
      ...resolveOptions({ impls: [...p.claims.run.pair] }, own, eta),
      api: p.api,
      ...(subset ? { cases: subset } : {}),
      quick: own.quick || quick === true,
    };
    const impls = await Promise.all(p.claims.run.pair.map((name) => loadImplementation(name)));
    const { cases, options } = await planRun(api, impls, opts);
    if (own.limits === false)
      assert.ok(
        options.limits === false && !cases.some((c) => c.protocol === 'database' || c.protocol === 'native'),
        `${p.api}: LIMITS=0 plans no limit and says so`,
      );
    const timed = timedSteps(cases, impls.length, api, options, eta);
    const paper = plannedSeconds(timed.steps, options.repeat, timed.eta);
    console.log(`${p.api}: the papers profile plans ${Math.round(paper / 60)} minutes`);
    assert.ok(paper <= 90 * 60, `${p.api}: the papers profile plans ${Math.round(paper / 60)} minutes`);
    seconds += paper;
  }
  assert.ok(seconds <= 4 * 3600, `the papers profile plans ${Math.round(seconds / 60)} minutes`);
});

test("the plan's time against the measured: each paper's last run, planned again from its recorded options, took within 20% of its plan", async () => {
  const { eta } = await chooseProfile('papers', false);
  let checked = 0;
  for (const p of papers) {
    const run = await readCompact(p.api);
    // A compact result written before it kept the run's time and plan options cannot be checked: said, not skipped silently.
    if (run?.wallSeconds === undefined || run.options.processPairs === undefined) {
      console.log(`NOT CHECKED: ${p.api}: ${run ? `its compact result (run ${run.runId}) predates the run's time` : 'not run yet'}`);
      continue;
    }
    const api = await benchApi(p.api);
    const o = { ...run.options, seed: run.seed };
    const { cases } = await api.module.plan(
      { quick: o.quick, ...(o.cases ? { cases: o.cases } : {}), ...(o.limits === false ? { limits: false } : {}) },
      api.scenarioFile,
    );
    const timed = timedSteps(cases, run.implementations.length, api, o, eta);
    const planned = plannedSeconds(timed.steps, o.repeat, timed.eta);
    const ratio = run.wallSeconds / planned;
    console.log(`${p.api}: run ${run.runId} took ${Math.round(run.wallSeconds / 60)} min, planned now at ${Math.round(planned / 60)} (×${ratio.toFixed(2)})`);
    assert.ok(
      ratio >= 0.8 && ratio <= 1.2,
      `${p.api}: run ${run.runId} took ${Math.round(run.wallSeconds / 60)} min where its plan says ${Math.round(planned / 60)}`,
    );
    checked++;
  }
  assert.ok(checked > 0, "no paper's compact result records its run's time");
});

const dir = await mkdtemp(join(tmpdir(), 'fairbench-claims-'));
after(() => rm(dir, { recursive: true, force: true }));

async function load(file: ClaimsFile): Promise<unknown> {
  await mkdir(join(dir, 'bench'), { recursive: true });
  await writeFile(join(dir, 'bench', 'claims.yaml'), stringify(file));
  const api = { dir, manifest: { name: 'toy', paper: { title: 't', authors: 'a' } } } as unknown as Api;
  return loadClaims(api);
}

const base: ClaimsFile = {
  source: 'a paper',
  run: { pair: ['a', 'b'], paperRuntimes: 'x' },
  deviations: ['one host'],
  claims: [{ id: 'rps', words: 'a is faster', where: 'Table 1', metric: 'throughput', cases: 'rest/*', expect: { better: 'a', ratio: 2 }, paperFigure: '2x' }],
};

test('the loader refuses a claim that contradicts itself or the schema', async () => {
  assert.ok(await load(base));
  const claim = base.claims[0]!;
  await assert.rejects(load({ ...base, claims: [{ ...claim, expect: { better: 'c', ratio: 2 } }] }), /better: c is not of its pair/);
  await assert.rejects(load({ ...base, claims: [{ ...claim, expect: { better: 'a', ratio: 0.5 } }] }), /says the other of a \/ b is better/);
  await assert.rejects(load({ ...base, claims: [{ ...claim, expect: { better: 'a' } as never }] }), /expect/);
  assert.ok(await load({ ...base, claims: [{ ...claim, expect: { better: 'b', directionOnly: 'no figure' } }] }));
  const finding = { finding: 'x', where: 'y', reason: 'z' };
  await assert.rejects(load({ ...base, notChecked: [finding, finding] }), /twice/);
  await assert.rejects(load({ ...base, claims: [{ ...claim, expect: { equal: [1.01, 1.1] } }] }), /margin must lie around 1/);
  await assert.rejects(load({ ...base, claims: [claim, claim] }), /claim rps twice/);
  await assert.rejects(load({ ...base, claims: [{ ...claim, metric: 'speed' as never }] }), /metric/);
  await assert.rejects(load({ ...base, longRuns: [{ what: 'x', command: 'rm -rf /', why: 'y' }] }), /command/);
});
