// make bench IMPL=<impl>[,<impl>] API=<a folder under apis/> (IMPL=express,express: an A/A calibration run) [REPEAT=10] [DURATION=20] [WARMUP=5] [QUICK=1]
//   [PROTOCOL=rest|graphql] [CASES=<glob or regex>] [MODEL=closed|open|arrivals|sequential] [PIN=0] [RESUME=<runId>]
// → node bench/src/cli/bench.ts --impl <impl>[,<impl>] --api <api> ...
// Writes results/bench/<api>/<impl>/<runId>.json per implementation, after every case and at the end.
// Exit codes (bench/README.md): 0 every case measured; 3 the run went through but some cases failed
// (each marked in the result with its reason); 2 a usage error (bad option, a RESUME of another
// run); 1 the run could not be done (gate refused, set-up failed, a bug); 130 interrupted (Ctrl-C).
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { apiNames } from '@fairbench/harness/api/manifest.ts';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { UsageError } from '../failure.ts';
import { GateRefusal } from '../gate.ts';
import { comparisonMarkdown } from '../report/comparison-summary.ts';
import { buildModel } from '../report/model.ts';
import { summaryMarkdown } from '../report/summary.ts';
import type { BenchResult } from '../result-document.ts';
import { runBench } from '../run.ts';
import type { FailedCase } from '../run-record.ts';

const parse = () =>
  parseArgs({
    options: {
      impl: { type: 'string' },
      api: { type: 'string' },
      repeat: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      quick: { type: 'boolean', default: false },
      protocol: { type: 'string' },
      cases: { type: 'string' },
      model: { type: 'string' },
      pin: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      resume: { type: 'string' },
    },
  });

/** make bench's exit codes (bench/README.md). */
const EXIT = { measured: 0, failed: 1, usage: 2, casesFailed: 3 } as const;

// Defaults: 10 repetitions as in the paper; a 20 s window gives ≥ 20,000 requests per
// repetition at ≥ 1,000 req/s (a p99 resting on ≥ 200 samples) and keeps a full run
// (54 cases × 10) near four hours; 5 s of warm-up for the JIT and the pools.
// QUICK: one repetition of 2 s after 1 s of warm-up: a smoke run of the whole pipeline.
const number = (raw: string | undefined, fallback: number, name: string, min: number): number => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`${name} must be a number ≥ ${min}, got '${raw}'`);
  return n;
};
const list = (v: string | undefined) => (v === undefined || v === '' ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));

await runMain('bench', async () => {
  try {
    let values: ReturnType<typeof parse>['values'];
    try {
      values = parse().values;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const quick = values.quick;
    const impls = list(values.impl);
    if (!impls || !values.api) throw new UsageError(`give IMPL and API, e.g. make bench IMPL=express API=${(await apiNames())[0] ?? '<api>'} (APIs: ${(await apiNames()).join(', ')})`);
    const models = list(values.model);
    const protocols = list(values.protocol);
    const outcome = await runBench({
      impls,
      api: values.api,
      repeat: Math.round(number(values.repeat, quick ? 1 : 10, 'REPEAT', 1)),
      durationSeconds: number(values.duration, quick ? 2 : 20, 'DURATION', 1),
      warmupSeconds: number(values.warmup, quick ? 1 : 5, 'WARMUP', 0),
      quick,
      ...(protocols ? { protocols } : {}),
      ...(values.cases ? { cases: values.cases } : {}),
      ...(models ? { models } : {}),
      pin: values.pin !== '0',
      seed: Math.round(number(values.seed, 1, 'SEED', 0)),
      ...(values.resume ? { resume: values.resume } : {}),
    });
    const runs = await Promise.all(outcome.files.map(async (file) => ({ file, doc: JSON.parse(await readFile(file, 'utf8')) as BenchResult })));
    for (const { doc } of runs) console.log(`\n${summaryMarkdown(doc)}`);
    // Several implementations (or copies): the pairs' verdicts, as the report computes them.
    if (runs.length > 1) console.log(comparisonMarkdown(buildModel(runs)));
    for (const file of outcome.files) console.log(`bench: result → ${file}`);
    console.log('bench: make report renders every result under results/bench as HTML');
    if (outcome.failed.length === 0) return EXIT.measured;
    console.log(`bench: ${failedLine(outcome.failed)}`);
    return EXIT.casesFailed;
  } catch (error) {
    if (error instanceof GateRefusal) {
      console.error(error.message);
      return EXIT.failed;
    }
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
});

/** "2 of 36 cases failed: rest/closed/c32-table · express (time-limit: …), …" — a database-alone case once. */
function failedLine(failed: readonly FailedCase[]): string {
  const byCase = new Map<string, FailedCase[]>();
  for (const f of failed) byCase.set(f.case.id, [...(byCase.get(f.case.id) ?? []), f]);
  const items = [...byCase].map(([id, fs]) => {
    const who = fs[0]!.case.protocol === 'database' ? '' : ` · ${fs.map((f) => f.impl).join(', ')}`;
    const f = fs[0]!.case.failure;
    return `  ${id}${who}: ${f.kind}${f.repetition ? ` in repetition ${f.repetition}` : ''}: ${f.reason}`;
  });
  return `${byCase.size} case${byCase.size === 1 ? '' : 's'} failed (recorded as failed in the result, with what they measured; exit code ${EXIT.casesFailed}):\n${items.join('\n')}`;
}
