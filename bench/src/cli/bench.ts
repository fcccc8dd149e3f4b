// make bench IMPL=express[,hapi] API=forum|users|documents  (IMPL=express,express: an A/A calibration run) [REPEAT=10] [DURATION=20] [WARMUP=5] [QUICK=1]
//   [PROTOCOL=rest|graphql] [CASES=<glob or regex>] [MODEL=closed|open|arrivals|sequential] [PIN=0]
// → node bench/src/cli/bench.ts --impl express,hapi --api documents ...
// Exits 1 when the gate refuses a pair or the run fails; writes results/bench/<api>/<impl>/<runId>.json per implementation.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { GateRefusal } from '../gate.ts';
import { comparisonMarkdown } from '../report/comparison-summary.ts';
import { buildModel } from '../report/model.ts';
import { summaryMarkdown } from '../report/summary.ts';
import type { BenchResult } from '../result-document.ts';
import { runBench } from '../run.ts';

const { values } = parseArgs({
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
  },
});

// Defaults: 10 repetitions as in the paper; a 20 s window gives ≥ 20,000 requests per
// repetition at ≥ 1,000 req/s (a p99 resting on ≥ 200 samples) and keeps a full run
// (54 cases × 10) near four hours; 5 s of warm-up for the JIT and the pools.
// QUICK: one repetition of 2 s after 1 s of warm-up: a smoke run of the whole pipeline.
const quick = values.quick;
const number = (raw: string | undefined, fallback: number, name: string, min: number): number => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, got '${raw}'`);
  return n;
};
const list = (v: string | undefined) => (v === undefined || v === '' ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));

await runMain('bench', async () => {
  const impls = list(values.impl);
  if (!impls || !values.api) throw new Error('give IMPL and API, e.g. make bench IMPL=express API=forum');
  const models = list(values.model);
  const protocols = list(values.protocol);
  try {
    const files = await runBench({
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
    });
    const runs = await Promise.all(files.map(async (file) => ({ file, doc: JSON.parse(await readFile(file, 'utf8')) as BenchResult })));
    for (const { doc } of runs) console.log(`\n${summaryMarkdown(doc)}`);
    // Several implementations (or copies): the pairs' verdicts, as the report computes them.
    if (runs.length > 1) console.log(comparisonMarkdown(buildModel(runs)));
    for (const file of files) console.log(`bench: result → ${file}`);
    console.log('bench: make report renders every result under results/bench as HTML');
    return true;
  } catch (error) {
    if (error instanceof GateRefusal) {
      console.error(error.message);
      return false;
    }
    throw error;
  }
});
