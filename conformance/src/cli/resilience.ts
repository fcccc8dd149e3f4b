// make resilience [IMPL=…] [API=…] [SHORT=1] → the resilience scenarios (conformance/resilience/scenarios.yaml)
// against every implementation × API that can run here, on local databases; a verdict per pair
// beside the conformance one and a column of the compliance matrix. Exits 1 on any failed scenario.
// MUTANTS=1 instead plants each defect of apis/<api>/resilience/mutants/<impl>.yaml in a copy of
// the implementation and requires the scenarios it names (short form) to fail on it.
import { basename } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implementationLanes, reportLanes, runLanes } from '@fairbench/harness/cli/lanes.ts';
import { checkPairs, listArg, notAccepted, parseCli } from '@fairbench/harness/cli/usage.ts';
import { tally } from '@fairbench/harness/tally.ts';
import { writeCurrentMatrix } from '../report/matrix.ts';
import { bold, green, printBanner, red, yellow } from '../report/console.ts';
import { selectTargets, startDatabases } from '../run.ts';
import { loadApiResilience, loadScenarios } from '../resilience/files.ts';
import { runResilience } from '../resilience/run.ts';
import { writeResilienceVerdict, type ResilienceVerdict } from '../resilience/verdict.ts';
import { defectsFor, plant } from '../resilience/mutants.ts';

await runMain('resilience', async () => {
  const { values } = parseCli({
    options: {
      impl: { type: 'string' },
      api: { type: 'string' },
      short: { type: 'boolean' },
      only: { type: 'string' },
      mutants: { type: 'boolean' },
      'per-database': { type: 'boolean' },
    },
  });
  const impls = listArg(values.impl);
  const apis = listArg(values.api);
  await checkPairs(impls, apis);
  if (values.mutants === true) return runPlantedDefects(impls, apis);
  const short = values.short === true;
  const only = listArg(values.only);
  // The short form over several implementations: one lane each, two at once (harness/src/cli/lanes.ts).
  // Its bounds are seconds wide (a 2 s database timeout within a bound of 4.5 s or more), far above
  // what sharing the machine with the other lane adds; the full form's overload scenario measures
  // capacity, so it runs one implementation at a time.
  const passOn = [
    ...(values.api ? ['--api', values.api] : []),
    '--short',
    ...(values.only ? ['--only', values.only] : []),
    ...(values['per-database'] === true ? ['--per-database'] : []),
  ];
  const lanes = short ? await implementationLanes(impls, passOn) : null;
  if (lanes) {
    const outcomes = await runLanes('resilience', process.argv[1]!, lanes);
    const files = await writeCurrentMatrix();
    console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${files.text}`);
    return reportLanes('resilience', outcomes);
  }
  const known = (await loadScenarios(false)).map((s) => s.id);
  const unknown = only?.find((id) => !known.includes(id));
  if (unknown !== undefined) throw notAccepted('ONLY', unknown, known);
  const scenarios = (await loadScenarios(short)).filter((s) => !only || only.includes(s.id));
  const selected = (await selectTargets({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) })).targets;
  // make test's cover (--per-database): per implementation, the first API (its manifest's order) of
  // each database kind — the database client, its timeouts and its reconnects are per kind; the
  // other pairs are make resilience SHORT=1's, said here.
  const targets = values['per-database'] === true ? onePerDatabase(selected) : selected;
  for (const left of selected.filter((t) => !targets.includes(t))) {
    console.log(
      yellow(
        `!! ${left.impl.manifest.name} × ${left.api.name} not in this run: make test covers each implementation's databases once (make resilience SHORT=1 runs every pair)`,
      ),
    );
  }
  let failed = 0;
  let ran = 0;
  let scenariosRun = 0;
  for (const target of targets) {
    const name = `${target.impl.manifest.name} × ${target.api.name}`;
    const base = { implementation: target.impl.manifest.name, api: target.api.name, short, recordedAt: new Date().toISOString() };
    const api = await loadApiResilience(target.api.dir);
    const bounds = target.impl.manifest.resilience;
    const skip =
      api === undefined
        ? `apis/${target.api.name}/resilience/requests.yaml does not exist`
        : bounds === undefined
          ? `impl/${basename(target.impl.dir)}/impl.yaml states no resilience bounds`
          : null;
    if (skip !== null) {
      console.log(yellow(`!! ${name} NOT tested: ${skip}`));
      if (only === undefined) await writeResilienceVerdict({ ...base, status: 'skipped', reason: skip, passed: 0, total: 0, scenarios: [] });
      continue;
    }
    printBanner(`resilience ${name}${short ? ' (short)' : ''}: ${scenarios.map((s) => s.id).join(', ')}`);
    // Fresh databases per pair: a stalled or restarted server must not carry over.
    const databases = await startDatabases(target.api.manifest.databases, { default: 'local' });
    let verdict: ResilienceVerdict;
    try {
      const outcomes = await runResilience(target, api!, bounds!, scenarios, databases, (o) => {
        console.log(`  ${o.passed ? green('PASS') : red('FAIL')} ${o.id} (${(o.durationMs / 1000).toFixed(1)} s) ${JSON.stringify(o.figures)}`);
        for (const f of o.failures) console.log(`       ${red(f)}`);
      });
      const passed = outcomes.filter((o) => o.passed).length;
      verdict = {
        ...base,
        status: passed === scenarios.length ? 'passed' : 'failed',
        bounds: bounds!,
        database: [...databases.values()].map((d) => `${d.engine.name} ${d.engine.version}`).join(', '),
        passed,
        total: scenarios.length,
        scenarios: outcomes,
      };
    } catch (error) {
      verdict = { ...base, status: 'error', reason: error instanceof Error ? error.message : String(error), passed: 0, total: scenarios.length, scenarios: [] };
      console.log(red(`  ERROR ${verdict.reason}`));
    } finally {
      for (const db of databases.values()) await db.stop();
    }
    ran++;
    scenariosRun += verdict.total;
    if (verdict.status !== 'passed') failed++;
    // A run of some scenarios (ONLY=…) is a probe, not a verdict: it would replace the whole one.
    if (only === undefined) console.log(`  verdict: ${await writeResilienceVerdict(verdict)}`);
    else console.log(`  (ONLY=${only.join(',')}: no verdict written)`);
  }
  const files = await writeCurrentMatrix();
  console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${files.text}`);
  console.log(`resilience: ${ran - failed} passed, ${failed} failed`);
  tally('resilience', { pairs: ran, scenarios: scenariosRun, failed });
  return ran > 0 && failed === 0;
});

/** Every planted defect must make each scenario it names fail (its short form, or the full one where the short form leaves it out). */
async function runPlantedDefects(impls: string[] | undefined, apis: string[] | undefined): Promise<boolean> {
  const short = await loadScenarios(true);
  // The overload scenario has no short form, and a defect only it can catch must still be tried.
  const scenarios = (await loadScenarios(false)).map((s) => short.find((x) => x.id === s.id) ?? s);
  const { targets } = await selectTargets({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) });
  let killed = 0;
  let survived = 0;
  for (const target of targets) {
    const api = await loadApiResilience(target.api.dir);
    const bounds = target.impl.manifest.resilience;
    if (api === undefined || bounds === undefined) continue;
    for (const { mutant } of await defectsFor(target)) {
      printBanner(`planted defect ${target.impl.manifest.name} × ${target.api.name}/${mutant.id}: ${mutant.why}`);
      const chosen = scenarios.filter((s) => mutant.killedBy.includes(s.id));
      const unknown = mutant.killedBy.filter((id) => !scenarios.some((s) => s.id === id));
      if (unknown.length > 0) throw new Error(`${mutant.id}: killedBy names no scenario ${unknown.join(', ')}`);
      const planted = await plant(target.impl, mutant);
      const databases = await startDatabases(target.api.manifest.databases, { default: 'local' });
      try {
        const outcomes = await runResilience({ impl: planted.impl, api: target.api }, api, bounds, chosen, databases, (o) =>
          console.log(`  ${o.passed ? 'passed' : 'failed'} ${o.id}: ${o.failures[0] ?? JSON.stringify(o.figures)}`),
        );
        const missed = chosen.filter((s) => outcomes.find((o) => o.id === s.id)?.passed !== false).map((s) => s.id);
        if (missed.length === 0) killed++;
        else survived++;
        console.log(`  ${missed.length === 0 ? green('killed') : red(`SURVIVED (passed: ${missed.join(', ')})`)}`);
      } finally {
        for (const db of databases.values()) await db.stop();
        await planted.remove();
      }
    }
  }
  console.log(`resilience planted defects: ${killed} killed, ${survived} survived`);
  return killed > 0 && survived === 0;
}

function onePerDatabase<T extends { impl: { manifest: { name: string } }; api: { manifest: { databases: readonly string[] } } }>(targets: readonly T[]): T[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = `${t.impl.manifest.name}|${[...t.api.manifest.databases].sort().join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
