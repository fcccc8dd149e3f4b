// The report's CPU-per-request table and the run facts behind it (the generator's
// ceiling, the machine's state at the start): what each request cost each process tree,
// the efficiency figure that does not depend on how the trees shared a core.
import { CONFIDENCE } from '../../stats/index.ts';
import type { BenchResult } from '../../record/result-document.ts';
import { caseLabel } from './charts.ts';
import { esc, table } from './html-parts.ts';
import { interval, share } from '../format.ts';
import type { CaseGroup, CaseResult, CpuEstimates } from '../rows.ts';

/** µs: whole numbers from 100 up, one decimal below. */
export function us(x: number): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: x >= 100 ? 0 : 1 });
}

export const CPU_CAPTION = `Bars: the implementation's whole process tree, µs of CPU (user + system, from /proc) per completed request, the median over the repetitions; black lines: its ${CONFIDENCE * 100}% bootstrap interval; grey on top: the database server's CPU for the same requests, so a bar's height is the server side's whole cost of one request. Each panel has its own y scale.`;

function estimate(e: CpuEstimates[keyof CpuEstimates], withInterval = true): string {
  if (!e) return '—';
  return withInterval && e.ci ? `<b>${us(e.median)}</b> <small>${interval(e.ci, us)}</small>` : us(e.median);
}

export function cpuTable(group: CaseGroup): string {
  const rows = group.rows.flatMap((row) =>
    row.results.map((r, i) => {
      const { server, database, generator } = r.cpuPerRequest;
      return [
        i === 0 ? esc(caseLabel(row.parameters)) : '',
        esc(r.impl),
        String(r.n),
        estimate(server),
        estimate(database),
        server ? us(server.median + (database?.median ?? 0)) : '—',
        estimate(generator, false) + overFloor(r),
        r.baselineCpu ? estimate(r.baselineCpu.database, false) : '—',
        r.baselineCpu ? estimate(r.baselineCpu.generator, false) : '—',
        r.ceiling ? `${r.ceiling.above ? '<span class="slower">' : ''}${share(r.ceiling.share)}${r.ceiling.above ? '</span>' : ''}` : '—',
      ];
    }),
  );
  return table(
    [
      'case',
      'impl',
      'reps',
      'server µs/req [CI]',
      'database µs/req [CI]',
      'server + database',
      'k6 µs/req',
      'database alone: database µs/query',
      'database alone: client µs/query',
      'share of k6 ceiling',
    ],
    rows,
    2,
  );
}

/** The case's k6 µs over a bare request's at its rate (bench/src/execute/rate-floor.ts), when measured. */
function overFloor(r: CaseResult): string {
  const f = r.case.floorAtRate;
  return f?.overFloor !== undefined
    ? ` <small title="k6/floor.js at ${us(f.targetRate)} req/s with ${f.vus} VUs: ${us(f.cpuPerRequestUs)} µs">(${f.overFloor.toFixed(2)} × floor at its rate)</small>`
    : '';
}

export function ceilingCell(doc: BenchResult): string {
  const c = doc.generator.ceiling;
  if (!c) return '<span class="slower">not measured</span>';
  const floor = c.floor
    ? `; floor F ${us(c.floor.cpuPerRequestUs)} µs per bare request${c.overFloor !== undefined ? `, the control ${c.overFloor} × F` : ''}`
    : '';
  return `${us(c.rate)} req/s against ${esc(c.target)} (${c.vus} VUs, ${c.durationSeconds} s); k6 ${c.cpuPerRequestUs !== undefined ? `${us(c.cpuPerRequestUs)} µs` : '?'} CPU per request at ${c.cpuPercentMean ?? '?'}% CPU${c.cpuBoundRate ? `, ${us(c.cpuBoundRate)} req/s with its cores all busy` : ''}${c.cv !== undefined ? `; control CV ${(c.cv * 100).toFixed(1)}% over ${c.windowRates?.length ?? '?'} parts of the window` : ''}${floor}${c.crossCheck ? `<br>cross-check ${esc(c.crossCheck.name)}: ${us(c.crossCheck.rate)} req/s, ${us(c.crossCheck.cpuPerRequestUs)} µs CPU per request at ${c.crossCheck.cpuPercentMean}% CPU` : ''}`;
}

export function noiseCell(doc: BenchResult): string {
  const n = doc.machine.noise;
  if (!n) return 'not recorded';
  const busy = n.busyProcesses.length
    ? `<span class="slower">busy: ${n.busyProcesses.map((p) => `${esc(p.command)} ${p.cpuPercent}%`).join(', ')}</span>`
    : 'no other busy process';
  return `load average ${n.loadAverage.join(' ')}; governor ${esc(n.governor ?? 'none exposed')}${n.cpuMHz ? `, ${n.cpuMHz} MHz` : ''}; ${busy}`;
}

/** wrk's rate on the same server after the repetitions, and its ratio to k6's median (CROSSCHECK=wrk). */
export function crossCheckCell(r: CaseResult): string {
  const c = r.case.crossCheck;
  if (!c) return '—';
  const ratio = r.throughput.median > 0 ? ` <small>(×${(c.rate / r.throughput.median).toFixed(2)})</small>` : '';
  return `${us(c.rate)}${ratio}${c.errors ? ` <span class="slower">${c.errors} errors</span>` : ''}`;
}
