// make cheats: each cheat planted in an implementation (apis/<api>/cheats/<impl>.yaml;
// harness/src/impl/planted.ts) benchmarked as make bench IMPL=<impl>+<cheat> API=<api>
// QUICK=1 CASES=<its cases> would, without the database-alone cases: its gate must pass (the
// conformance suite and the pact miss it: else it is no cheat only proof of work can see), and
// the run must fail the case with missing work on the counters the file names. A cheat that
// passes both is one the benchmark would publish a figure of. --impl, --api: only those (make
// test runs each implementation's cheats as a lane of its pool).
import { rm } from 'node:fs/promises';
import { verdictFile } from '@fairbench/conformance/report/verdict.ts';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { loadCheats, PLANT_MARK, type FoundCheat } from '@fairbench/harness/impl/planted.ts';
import { tally } from '@fairbench/harness/tally.ts';
import { GateRefusal } from '../execute/gate.ts';
import { chooseProfile } from '../plan/profiles.ts';
import { resolveOptions } from '../plan/options.ts';
import { runBench } from '../run.ts';

interface Outcome {
  readonly cheat: string;
  /** Caught: the gate passed it and the run found its work missing on every counter named. */
  readonly caught: boolean;
  readonly why: string;
}

async function check(cheat: FoundCheat, quick: Awaited<ReturnType<typeof chooseProfile>>): Promise<Outcome> {
  const ref = `${cheat.implementation}${PLANT_MARK}${cheat.id}`;
  console.log(`\n== cheat ${ref} × ${cheat.api}: make bench IMPL=${ref} API=${cheat.api} QUICK=1 CASES='${cheat.caughtBy.cases}'`);
  // No database-alone case: the limit measures no implementation's work (about 2 min of a lane saved).
  const run = () => runBench({ ...resolveOptions({}, quick.profile, quick.eta), impls: [ref], api: cheat.api, cases: cheat.caughtBy.cases, limits: false });
  let outcome;
  for (let attempt = 1; outcome === undefined; attempt++) {
    try {
      outcome = await run();
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      // A suite case that fails on a busy machine (make test's other lanes: a concurrent flow's
      // database time-outs) is not the suite catching the cheat: it must refuse it twice.
      if (attempt === 1) {
        console.log(`cheats: ${ref}: the gate refused it once (${error.message}); its conformance runs again`);
        await rm(verdictFile(ref, cheat.api), { force: true }); // else the gate would refuse on the verdict just recorded
        continue;
      }
      const why = `the gate refused it twice (${error.message}): the suite catches it, so it shows nothing of proof of work; make it a planted defect of conformance instead`;
      return { cheat: ref, caught: false, why };
    }
  }
  const missing = outcome.failed.filter((f) => f.case.failure.kind === 'missing-work');
  if (missing.length === 0)
    return {
      cheat: ref,
      caught: false,
      why: `no case failed with missing work (${outcome.failed.length} failed otherwise): the benchmark would publish its figures`,
    };
  const counters = new Set(
    missing.flatMap((f) =>
      (f.case.invalidRepetitions ?? []).flatMap((r) => (r.work?.counters ?? []).filter((c) => c.status === 'missing').map((c) => c.counter)),
    ),
  );
  const unseen = cheat.caughtBy.missing.filter((c) => !counters.has(c));
  if (unseen.length)
    return {
      cheat: ref,
      caught: false,
      why: `missing work on ${[...counters].join(', ')}, but not on ${unseen.join(', ')} as apis/${cheat.api}/cheats/${cheat.implementation}.yaml says`,
    };
  return {
    cheat: ref,
    caught: true,
    why: `conformance and the pact passed it; ${missing.map((f) => f.case.id).join(', ')}: ${missing[0]!.case.failure.reason}`,
  };
}

await runMain('cheats', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
  const impls = listArg(values.impl);
  const apis = listArg(values.api);
  const cheats = (await loadCheats()).filter((c) => (impls === undefined || impls.includes(c.implementation)) && (apis === undefined || apis.includes(c.api)));
  if (cheats.length === 0) {
    console.log(`cheats: none planted${impls ? ` in ${impls.join(', ')}` : ''}${apis ? ` for ${apis.join(', ')}` : ''} (apis/*/cheats/<impl>.yaml)`);
    return true;
  }
  const quick = await chooseProfile('quick', false);
  const outcomes: Outcome[] = [];
  for (const cheat of cheats) outcomes.push(await check(cheat, quick));
  console.log('\ncheats: planted, missed by conformance, caught by proof of work?');
  for (const o of outcomes) console.log(`  ${o.caught ? 'caught ' : 'ESCAPED'} ${o.cheat}: ${o.why}`);
  const caught = outcomes.filter((o) => o.caught).length;
  tally('cheats', { caught, escaped: outcomes.length - caught });
  return caught === outcomes.length;
});
