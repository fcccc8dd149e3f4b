// A benchmark run of one or more implementations on one API, step by step: planned and
// checked before anything starts (every usage error), the conformance gate of each
// implementation, then the run itself — the databases started and seeded with the paper's
// data by the API's dataset module, the implementations built, the machine and the
// generator measured, every selected case run (execute/case-loop/: restarts, alternating
// repetitions, sampling, failures recorded) and one result document per implementation,
// rewritten after every case so that a run stopped early can be continued (RESUME).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { onCleanup, shuttingDown } from '@fairbench/harness/cleanup.ts';
import { implTreeHash } from '@fairbench/harness/fingerprint.ts';
import { contractEnv, poolSizeFromEnv } from '@fairbench/harness/impl/contract-env.ts';
import { buildImplementation } from '@fairbench/harness/impl/launch.ts';
import { distinctOriginals, originalOf } from './record/copies.ts';
import type { BenchOutcome, PreparedBench, ResolvedOptions } from './plan/options.ts';
import { implementationsOf, planRun, resolveApi, timedSteps } from './plan/run-plan.ts';
import { runCases } from './execute/case-loop/loop.ts';
import type { GateRecord } from './execute/gate.ts';
import { CaseLoopEvents } from './execute/case-loop/events.ts';
import { caseLoopDeps } from './execute/case-loop/wiring.ts';
import { ownDatabases } from './execute/own-databases.ts';
import { checkCanRun, chooseWhere, seedPaper, startDatabases } from './execute/parties.ts';
import type { PreparedRun } from './execute/prepared-run.ts';
import { startRecording } from './execute/head.ts';
import { preflight } from './execute/preflight.ts';
import { plannedSeconds } from './plan/eta.ts';
import { loadWorkModel } from './plan/work-model.ts';
import { Progress } from './execute/progress.ts';
import { k6Version } from './load/k6.ts';
import { newRunId } from './record/result.ts';
import { checkResumedDatabase, loadResume } from './record/resume.ts';

export type { BenchOutcome, PreparedBench, ResolvedOptions } from './plan/options.ts';

/**
 * Runs the benchmark and writes one result document per implementation: after every
 * case (complete: false) and at the end. A case that fails is recorded with its reason
 * and the run goes on; only a bug, the gate or an interruption ends it early.
 */
export async function runBench(opts: ResolvedOptions): Promise<BenchOutcome> {
  const prepared = await prepareBench(opts);
  await prepared.gate();
  return prepared.run();
}

/** Everything a usage error can come from, before anything starts: the API, the implementations, the cases the filters keep, a RESUME's documents. */
export async function prepareBench(opts: ResolvedOptions): Promise<PreparedBench> {
  const sessionStarted = new Date();
  const api = await resolveApi(opts.api);
  const impls = await implementationsOf(opts);
  const { cases, options } = await planRun(api, impls, opts);
  poolSizeFromEnv(); // DB_POOL_SIZE checked now, not after the gate
  const where = await chooseWhere(opts);
  // RESUME: refused before anything starts unless it is the same run.
  const implTreeHashes = async () => new Map(await Promise.all(impls.map(async (i) => [i.manifest.name, await implTreeHash(i.dir)] as const)));
  const resumed = opts.resume
    ? await loadResume(
        opts.api,
        impls.map((i) => i.manifest.name),
        opts.resume,
        { options, implTreeHashes: await implTreeHashes(), placement: where.placement },
      )
    : undefined;
  await checkCanRun(impls, where.provider); // the options are right: can it run here?
  const remaining = cases.filter((c) => !resumed?.done.has(c.id));
  const runId = resumed?.runId ?? opts.runId ?? newRunId(sessionStarted);
  const gates = new Map<string, GateRecord>();
  const timed = timedSteps(remaining, impls.length, api, options, opts.eta);
  return {
    api: opts.api,
    runId,
    planned: cases.length,
    recorded: cases.length - remaining.length,
    plannedSeconds: plannedSeconds(timed.steps, options.repeat, timed.eta),
    // The gate applies to each implementation: one that does not pass stops the whole run.
    gate: async () => {
      const { passGate } = await import('./execute/gate.ts'); // the conformance suite loads only here: usage errors are answered without it
      for (const impl of impls) gates.set(impl.manifest.name, await passGate(originalOf(impl), opts.api));
    },
    run: () => {
      if (gates.size !== impls.length) throw new Error('prepareBench: run() before gate()');
      if (resumed)
        console.log(`resuming run ${runId} of ${opts.api}: ${cases.length - remaining.length} of ${cases.length} cases recorded, ${remaining.length} to run`);
      return execute({ opts, api, impls, cases, remaining, options, where, resumed, runId, gates, sessionStarted: new Date() });
    },
  };
}

/** Databases, seeding, the cases and the documents of a prepared run whose gate passed. */
async function execute(run: PreparedRun): Promise<BenchOutcome> {
  const { opts, api, impls, remaining, options, where, runId } = run;
  const generatorVersion = await k6Version().catch(() => {
    throw new Error('k6 is not installed: run make setup');
  });
  const databases = await startDatabases(api, where);
  const { db } = databases;
  const seeded = await seedPaper(api, databases);
  const prepared = await api.module.prepare(seeded, databases.byKind);
  const fingerprint = seeded.info.fingerprint;
  if (run.resumed) checkResumedDatabase(run.resumed, { provider: db.provider, fingerprint, engine: db.engine.name, version: db.engine.version });
  // A switched load that writes: the second implementation gets the same rows in a database of its own.
  const own = options.ownDatabases
    ? await ownDatabases(
        api,
        databases,
        { seeded, prepared },
        impls.map((i) => i.manifest.name),
      )
    : undefined;
  const runtime = db.provider;
  for (const impl of distinctOriginals(impls)) await buildImplementation(impl, { runtime });
  const env = (impl: string, port: number) => contractEnv({ port, databases: own?.get(impl)?.servers ?? databases.servers });
  const poolSize = Number(env(impls[0]!.manifest.name, 0)['DB_POOL_SIZE']);
  const workDir = await mkdtemp(join(os.tmpdir(), 'fairbench-bench-'));
  onCleanup(`bench work dir ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  // The generator's ceiling is measured on this host against nginx here: it says nothing of other hosts.
  const { noise, ceiling } = await preflight(where.placement, workDir, options.quick, !where.topology);
  const runtimes = new Map<string, string>();
  const { recorder, done } = await startRecording(run, { seeded, databases, poolSize, noise, ceiling, generatorVersion, runtimes });

  const timed = timedSteps(remaining, impls.length, api, options, opts.eta);
  const progress = new Progress(timed.steps, options.repeat, timed.eta);
  const databaseUrl = db.url;
  const workModel = await loadWorkModel(api);
  await runCases(remaining, {
    ...caseLoopDeps({
      options,
      api,
      prepared,
      seeded,
      where,
      workDir,
      poolSize,
      ceiling,
      databaseUrl,
      databasePid: databases.pid,
      impls,
      env,
      ...(own ? { own } : {}),
      ...(workModel ? { work: { model: workModel, database: db } } : {}),
      runtime,
      runtimes,
    }),
    events: progress.listen(new CaseLoopEvents()),
    // Randomized interleaved trials: each round's order drawn per run and case (plan/interleave.ts).
    orderKey: runId,
    recorded: async (_c, records) => {
      recorder.record(records);
      await recorder.write();
    },
    stopping: shuttingDown,
  });

  const written = await recorder.write();
  done();
  for (const d of databases.servers) await d.stop();
  return { runId, files: written, complete: recorder.complete, failed: recorder.failed() };
}
