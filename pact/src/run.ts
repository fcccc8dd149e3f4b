// make pact: the consumer test of each selected API (its k6 script against Pact's mock server,
// writing the pact), then the provider verification of every implementation × API pair that
// can run here, each recorded as a verdict; pairs that cannot run are recorded as skipped, loudly.
import { implTreeHash } from '@fairbench/harness/fingerprint.ts';
import { shuttingDown } from '@fairbench/harness/cleanup.ts';
import { runtimeOf, runtimeOptions, selectTargets, startDatabases, type Selection } from '@fairbench/conformance/run.ts';
import { byImplementation, launchTargets } from '@fairbench/conformance/launch-target.ts';
import { printBanner } from '@fairbench/conformance/report/console.ts';
import { pactApis, type PactApi } from './apis.ts';
import { runConsumer, type ConsumerOutcome } from './consumer.ts';
import { contractHash, writePactVerdict, type PactVerdict } from './verdict.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { pactFile } from './paths.ts';
import { verifyTarget } from './verify.ts';

export interface PactRun {
  readonly consumers: readonly ConsumerOutcome[];
  readonly verdicts: readonly PactVerdict[];
}

export async function runConsumers(apis: readonly PactApi[]): Promise<ConsumerOutcome[]> {
  const outcomes: ConsumerOutcome[] = [];
  for (const api of apis) {
    printBanner(`consumer: ${api.name} (bench/k6.js against Pact's mock server)`);
    const o = await runConsumer(api);
    console.log(
      `  ${o.passed ? 'passed' : 'FAILED'}: ${o.interactions} interactions, ${o.runs.length} k6 runs, ${o.runs.reduce((n, r) => n + r.requests, 0)} requests in ${o.ms} ms → ${o.file}`,
    );
    for (const p of o.problems) console.log(`  ${p.split('\n').slice(0, 12).join('\n  ')}`);
    // Which contract the pact file was written from: ensurePacts reuses it while that holds.
    if (o.passed) await writeFile(`${o.file}.contract`, await contractHash(api));
    outcomes.push(o);
  }
  return outcomes;
}

/** The pact files of `apis`: reused when written from the current contract (make pact just ran), else written now. */
export async function ensurePacts(apis: readonly PactApi[]): Promise<ConsumerOutcome[]> {
  const stale: PactApi[] = [];
  for (const api of apis) {
    const written = await readFile(`${pactFile(api.name)}.contract`, 'utf8').catch(() => null);
    if (written !== null && written === (await contractHash(api)))
      console.log(`consumer: ${api.name}: the pact file of the current contract is reused (${pactFile(api.name)})`);
    else stale.push(api);
  }
  return runConsumers(stale);
}

/**
 * `consumers`: run (default) writes each pact anew; reuse takes a pact written from the current
 * contract (make test's pool: one lane wrote them, each implementation's lane verifies); only
 * writes the pacts and verifies nothing.
 */
export async function runPact(selection: Selection, consumers: 'run' | 'reuse' | 'only' = 'run'): Promise<PactRun> {
  const apis = await pactApis(selection.apis);
  const written = consumers === 'reuse' ? await ensurePacts(apis) : await runConsumers(apis);
  if (consumers === 'only') return { consumers: written, verdicts: [] };
  const verdicts: PactVerdict[] = [];
  // Only a pact its consumer test wrote is verified: a failing consumer test leaves none.
  const ready = new Map(apis.filter((a) => written.find((c) => c.api === a.name)?.passed !== false).map((a) => [a.name, a]));
  if (ready.size === 0) return { consumers: written, verdicts };
  const runtime = runtimeOf(selection).provider.name;
  const { targets, skips } = await selectTargets({ ...selection, apis: [...ready.keys()] }, runtime);
  for (const skip of skips.filter((s) => ready.has(s.api))) {
    verdicts.push(
      await record({
        schemaVersion: 1,
        implementation: skip.impl.manifest.name,
        api: skip.api,
        status: 'skipped',
        reason: skip.reason,
        implTreeHash: await implTreeHash(skip.impl.dir),
        contractHash: await contractHash(ready.get(skip.api)!, skip.impl.manifest.name),
        recordedAt: new Date().toISOString(),
        passed: 0,
        failed: 0,
        total: 0,
        failing: [],
      }),
    );
  }
  if (targets.length === 0) return { consumers: written, verdicts };
  const databases = await startDatabases(
    targets.flatMap((t) => t.api.manifest.databases),
    runtimeOptions(selection),
  );
  try {
    // Each implementation started once for all its APIs (launchTargets): a JVM's start paid once,
    // not once per API. Where that launch fails, each pair launches on its own and records why.
    for (const ofImpl of byImplementation(targets)) {
      printBanner(`provider: ${ofImpl[0]!.impl.manifest.name} × ${ofImpl.map((t) => t.api.name).join(', ')} (pact verification)`);
      const launched = await launchTargets(ofImpl, databases).catch((error: unknown) => {
        console.log(`  one launch for ${ofImpl.map((t) => t.api.name).join(', ')} failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      try {
        for (const [i, target] of ofImpl.entries()) {
          console.log(`  ${target.api.name}:`);
          verdicts.push(await record(await verifyTarget(target, ready.get(target.api.name)!, databases, undefined, launched?.[i])));
        }
      } finally {
        for (const l of launched ?? []) await l.stop();
      }
    }
  } finally {
    for (const db of databases.values()) await db.stop();
  }
  return { consumers: written, verdicts };
}

async function record(verdict: PactVerdict): Promise<PactVerdict> {
  if (shuttingDown()) throw new Error('interrupted');
  const file = await writePactVerdict(verdict);
  const timing = verdict.verifyMs !== undefined ? ` (verified in ${verdict.verifyMs} ms, ${verdict.durationMs} ms with build, seed and start)` : '';
  console.log(`  pact verdict: ${verdict.status} ${verdict.passed}/${verdict.total}${timing} → ${file}`);
  for (const r of verdict.interactions?.filter((i) => !i.passed) ?? []) console.log(`    failed: ${r.description}${r.problem ? ` — ${r.problem}` : ''}`);
  return verdict;
}
