// make calibrate: the harness checked against known differences. The calibration server
// (bench/src/calibration/server.ts, no implementation, no database) is run A/B at each
// EXTRA percent of CPU cost per request (of the whole request's CPU, measured by a probe
// first; 0 = A/A: every verdict a false one), COMPARISONS
// times each, the levels taking turns so that the machine's drift falls on all of them
// alike. Each comparison: PAIRS pairs of SLICE-second interleaved slices in one k6 process
// (bench/src/calibration/ab.ts). Prints each comparison and, per level and quantity, how
// many were declared (paired, adjusted over the comparison's three quantities; raw; and
// unpaired on the same slices) with the median interval width and MDE; writes
// results/calibration/<runId>.json and .csv.
//
//   node bench/src/cli/calibrate.ts [--extra 0,5,10] [--comparisons 20,10,10] [--pairs 10]
//     [--slice 1.5] [--guard 0.3] [--warmup 2] [--vus 8] [--cost-us 400] [--pin 1]
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { UsageError } from '@fairbench/harness/cli/usage.ts';
import { QUANTITIES, runAb, type AbResult, type Quantity } from '../calibration/ab.ts';
import { stepsPerMicrosecond } from '../calibration/server.ts';
import { csvField, ESTIMATE_COLUMNS, estimateFields } from '../report/csv.ts';
import { detectable, pValue, relative as rel } from '../report/format.ts';
import { declared, median, type Adjusted, type ComparisonEstimate } from '../stats/index.ts';
import { choosePlacement } from '../load/placement.ts';

await runMain('calibrate', async () => {
  const { values } = parseArgs({
    options: {
      extra: { type: 'string', default: '0,5,10' },
      comparisons: { type: 'string', default: '20,10,10' },
      pairs: { type: 'string', default: '12' },
      slice: { type: 'string', default: '1.5' },
      guard: { type: 'string', default: '0.3' },
      warmup: { type: 'string', default: '2' },
      vus: { type: 'string', default: '8' },
      'cost-us': { type: 'string', default: '400' },
      pin: { type: 'string', default: '1' },
    },
  });
  const list = (s: string, name: string) => {
    const xs = s.split(',').map(Number);
    if (xs.some((x) => !(x >= 0))) throw new UsageError(`calibrate: ${name} must be numbers ≥ 0, got '${s}'`);
    return xs;
  };
  const extras = list(values.extra, 'EXTRA');
  const counts = list(values.comparisons, 'COMPARISONS');
  if (counts.length !== extras.length)
    throw new UsageError(`calibrate: COMPARISONS needs one count per EXTRA level (${extras.length}), got '${values.comparisons}'`);
  const pairs = Number(values.pairs);
  const sliceSeconds = Number(values.slice);
  const guardSeconds = Number(values.guard);
  if (!(guardSeconds >= 0 && guardSeconds < sliceSeconds)) throw new UsageError('calibrate: 0 ≤ GUARD < SLICE');
  const warmupSeconds = Number(values.warmup);
  const vus = Number(values.vus);
  const costUs = Number(values['cost-us']);
  if (!(pairs >= 6 && sliceSeconds > 0 && warmupSeconds >= 0 && vus >= 1 && costUs > 0))
    throw new UsageError('calibrate: PAIRS ≥ 6, SLICE > 0, WARMUP ≥ 0, VUS ≥ 1 and COST_US > 0');
  const rate = stepsPerMicrosecond();
  const iterations = Math.round(costUs * rate);
  const placement = choosePlacement(values.pin !== '0');
  const runId = new Date()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  const dir = join(resultsDir, 'calibration');
  const workDir = join(dir, runId);
  await mkdir(workDir, { recursive: true });
  const plannedSeconds = counts.reduce((a, b) => a + b, 0) * (warmupSeconds + 2 * pairs * sliceSeconds + 3);
  const startLoad = loadavg()[0]!;
  console.log(
    `calibrate ${runId}: extra ${extras.join(', ')}% × ${counts.join(', ')} comparisons, ${pairs} pairs of ${sliceSeconds}-s slices each (the first ${guardSeconds} s of each left out; ${warmupSeconds} s warm-up, ${vus} VUs); ` +
      `${costUs} µs of burn per request = ${iterations} steps (${rate.toFixed(0)} steps/µs here); about ${Math.round(plannedSeconds / 60)} min; load average ${startLoad.toFixed(2)}`,
  );
  // The probe: B at twice A's burn. With c = h + burn (h: Node's HTTP handling), the pairs' CPU
  // ratio r = (h + 2·burn) / (h + burn) gives the burn's share of a request's CPU, r − 1; a level
  // of p% of the request's CPU is then p / (r − 1) % more burn steps.
  const probe = await runAb({
    iterations,
    extraPercent: 100,
    pairs: 6,
    sliceSeconds,
    guardSeconds,
    warmupSeconds,
    vus,
    placement,
    workDir,
    key: `${runId}|probe`,
  });
  const burnShare = Math.min(1, Math.max(0.2, probe.paired.cpu.ratio - 1));
  const baseCpu = median(probe.slices.filter((x) => x.side === 'A').map((x) => x.cpuUsPerRequest));
  console.log(
    `  probe (B at twice the burn): CPU per request ${baseCpu.toFixed(0)} µs for A, ratio ${probe.paired.cpu.ratio.toFixed(3)}: the burn is ${(burnShare * 100).toFixed(0)}% of a request's CPU, so +p% of the request's CPU = +${(100 / burnShare).toFixed(0)}% × p/100 of the burn`,
  );
  const started = Date.now();
  const results: AbResult[] = [];
  const left = [...counts];
  for (let round = 0; left.some((n) => n > 0); round++)
    for (const [i, extra] of extras.entries()) {
      if (left[i]! <= 0) continue;
      left[i]!--;
      const k = counts[i]! - left[i]!;
      const r = await runAb({
        iterations,
        extraPercent: extra,
        burnExtraPercent: extra / burnShare,
        pairs,
        sliceSeconds,
        guardSeconds,
        warmupSeconds,
        vus,
        placement,
        workDir,
        key: `${runId}|${extra}|${k}`,
      });
      results.push(r);
      // Written as it goes: a stopped calibration keeps what it measured.
      await writeFile(join(dir, `${runId}.partial.json`), JSON.stringify({ runId, results }));
      const cell = (c: ComparisonEstimate & Adjusted) =>
        `${rel(c.ratio)} ${c.ci ? `[${rel(c.ci.low)}, ${rel(c.ci.high)}]` : ''} MDE ${detectable(c)} p ${pValue(c.test?.p ?? null)} ${c.verdict}`;
      console.log(
        `  +${extra}% #${k}: CPU/req ${cell(r.paired.cpu)} · req/s ${cell(r.paired.throughput)} · p95 ${cell(r.paired.p95)} · (unpaired req/s ${r.unpaired.throughput.verdict}, CPU ${r.unpaired.cpu.verdict}) · load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  const endLoad = loadavg()[0]!;
  const minutes = (Date.now() - started) / 60_000;
  const lines = [
    '',
    `**Calibration ${runId}** (B against A; ${pairs} pairs of ${sliceSeconds}-s slices, ${minutes.toFixed(1)} min; load average ${startLoad.toFixed(2)} at the start, ${endLoad.toFixed(2)} at the end)`,
    '',
    '| extra cost | quantity | comparisons | declared (paired, adjusted) | raw | unpaired (adjusted) | median difference | median 95% interval width | median MDE |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const summary: Record<string, unknown>[] = [];
  for (const extra of extras)
    for (const q of QUANTITIES) {
      const rs = results.filter((r) => r.extraPercent === extra);
      const p = rs.map((r) => r.paired[q]);
      const widths = p.flatMap((c) => (c.ci ? [(c.ci.high - c.ci.low) * 100] : []));
      const mdes = p.flatMap((c) => (c.mde ? [c.mde * 100] : []));
      // A costlier B is "slower" on every quantity (less throughput, higher p95, more CPU).
      const right = (v: string) => (extra === 0 ? declared(v as never) : v === 'slower');
      const row = {
        extraPercent: extra,
        quantity: q,
        comparisons: rs.length,
        declaredPaired: p.filter((c) => right(c.verdict)).length,
        declaredWrongWay: extra === 0 ? 0 : p.filter((c) => c.verdict === 'faster').length,
        declaredRaw: p.filter((c) => right(c.rawVerdict)).length,
        declaredUnpaired: rs.filter((r) => right(r.unpaired[q].verdict)).length,
        medianDifference: rs.length ? median(p.map((c) => (c.ratio - 1) * 100)) : null,
        medianWidthPoints: widths.length ? median(widths) : null,
        medianMdePercent: mdes.length ? median(mdes) : null,
        medianUnpairedWidthPoints: median(rs.flatMap((r) => (r.unpaired[q].ci ? [(r.unpaired[q].ci!.high - r.unpaired[q].ci!.low) * 100] : [0]))),
      };
      summary.push(row);
      const f = (x: number | null) => (x === null ? '—' : x.toFixed(1));
      lines.push(
        `| +${extra}% | ${q} | ${rs.length} | ${row.declaredPaired}${extra === 0 ? ' (false)' : ''}${row.declaredWrongWay ? ` (+${row.declaredWrongWay} the wrong way)` : ''} | ${row.declaredRaw} | ${row.declaredUnpaired} | ${f(row.medianDifference)}% | ${f(row.medianWidthPoints)} (unpaired ${f(row.medianUnpairedWidthPoints)}) | ±${f(row.medianMdePercent)}% |`,
      );
    }
  console.log(lines.join('\n'));
  const file = join(dir, `${runId}.json`);
  await writeFile(
    file,
    JSON.stringify(
      {
        runId,
        options: { extras, counts, pairs, sliceSeconds, guardSeconds, warmupSeconds, vus, costUs, iterations, stepsPerMicrosecond: rate, placement },
        probe: { baseCpuUsPerRequest: baseCpu, ratio: probe.paired.cpu.ratio, burnShare, slices: probe.slices },
        loadAverage: { start: startLoad, end: endLoad },
        minutes,
        summary,
        results,
      },
      null,
      1,
    ),
  );
  const csv = [
    ['extra_percent', 'comparison', 'quantity', 'method', ...ESTIMATE_COLUMNS, 'p_adjusted', 'raw_verdict', 'verdict'].join(','),
    ...results.flatMap((r, i) =>
      QUANTITIES.flatMap((q: Quantity) =>
        (['paired', 'unpaired'] as const).map((m) => {
          const c = r[m][q];
          return [r.extraPercent, i + 1, q, m, ...estimateFields(c), c.pAdjusted, c.rawVerdict, c.verdict].map(csvField).join(',');
        }),
      ),
    ),
  ].join('\n');
  await writeFile(file.replace(/\.json$/, '.csv'), csv + '\n');
  console.log(`calibrate: results → ${relative(repoRoot, file)} and .csv`);
  return true;
});
