// The report page: one self-contained HTML file (inline CSS, inline SVG, no script,
// nothing fetched at view time).
import { ALPHA, BOOTSTRAP_SEED, CONFIDENCE, MIN_REPETITIONS, MIN_VERDICT_REPETITIONS, RESAMPLES, type Verdict } from '../../stats/index.ts';
import { docLabel } from '../../record/copies.ts';
import { caseLabel, cpuSpec, implColors, latencySpec, renderSvg, throughputSpec, timelineSpec, usageSpec } from './charts.ts';

const WARMUP_NOTE =
  'Unrecorded repetitions before the recorded ones, the same load, each after the same data reset and idle wait: they go on until an iteration\'s rate rises less than the profile\'s threshold above the one before (or its maximum is reached: "still rising"). No statistic uses them; the same rule applies to every implementation.';
const TIMELINE_CAPTION =
  "Each case's first load, the first a freshly started implementation serves (it is restarted for every case; its first warm-up iteration where the case had them): the median (solid) and p95 (dashed) latency of the requests that ended in each second since the load began, log scale; the grey dotted rule is the end of the warm-up (the profile's longer first warm-up, the same for every implementation), where the measured window begins. A runtime that compiles as it runs (the JVM's JIT, V8's and JavaScriptCore's tiers) shows its warm-up as slow first seconds.";
import { detectable, interval, mib, ms, percent, pValue, rate, ratioWithInterval, relative, share, switchedNote } from '../format.ts';
import type { ApiReport, CaseGroup, CaseResult, FamilyCounts, PairComparison, RunInfo, Verdicts } from '../model.ts';
import { cpuTable, ceilingCell, crossCheckCell, noiseCell, CPU_CAPTION } from './cpu.ts';
import { esc, table } from './html-parts.ts';
import { tiersCpuSpec, tiersTable, TIERS_CAPTION, TIERS_CPU_CAPTION } from './tiers.ts';
import { isDatabaseAlone, tierOf } from '../../record/result-document.ts';

export { esc };
import { typeFamilies, type TypeRow } from '../request-types.ts';
import { precisionLine } from '../comparison-summary.ts';
import { claimsSection } from './claims.ts';
import { overTimeParts } from './over-time.ts';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;margin:0 auto;padding:24px 32px;max-width:1320px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:20px;margin:36px 0 8px;border-bottom:2px solid #1d1d1f;padding-bottom:4px}
h3{font-size:17px;margin:28px 0 8px}h4{font-size:14px;margin:18px 0 6px}
p.note,figcaption{color:#555;font-size:12.5px;margin:4px 0 10px}
table{border-collapse:collapse;margin:6px 0 14px;font-size:12.5px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d8d8d8;padding:3px 7px;text-align:right;vertical-align:top;white-space:nowrap}
th{background:#f4f4f6;text-align:center}td.l,th.l{text-align:left}
tbody tr:nth-child(even){background:#fafafa}
.warn{background:#fff7e0;border-left:4px solid #e0a800;padding:6px 12px;margin:8px 0}.warn li{margin:2px 0}
.bad{background:#fdecea;border-left-color:#d93025}
.faster{color:#1e7b34;font-weight:600}.slower{color:#b3261e;font-weight:600}.nsd{color:#555}.few{color:#8a6d00}
.swatch{display:inline-block;width:10px;height:10px;margin-right:5px;border-radius:2px;vertical-align:baseline}
table.tiers td:first-child{white-space:normal;min-width:11em;max-width:16em}table.runs thead{display:none}table.runs td{white-space:normal;text-align:left;min-width:12em}table.runs td:first-child{font-weight:600;background:#f4f4f6;min-width:0;white-space:nowrap}table.runs td code{word-break:break-all}
table.cases td:nth-child(6),table.cases td:nth-child(7),table.cases td:nth-child(11),table.cases td:nth-child(12),table.types td:nth-child(7),table.types td:nth-child(8),table.types td:nth-child(11),table.types td:nth-child(12){white-space:normal;min-width:7em;text-align:center}
.scroll{overflow-x:auto}figure{margin:8px 0 16px;overflow-x:auto}details>summary{cursor:pointer;font-weight:600;margin:10px 0}
code{font-size:12px;background:#f4f4f6;padding:0 3px;border-radius:3px}
`;

const PROTOCOL_NAMES: Record<string, string> = { rest: 'REST', graphql: 'GraphQL' };
const MODEL_NAMES: Record<string, string> = {
  closed: 'closed model (fixed virtual users, each looping)',
  open: 'open model (constant arrival rate)',
  arrivals: 'arrivals (N users started evenly over T seconds, each running its flow once)',
  sequential: 'sequential (one client, the requests one after another)',
};

function swatch(impl: string, impls: string[]): string {
  const { range } = implColors(impls);
  return `<span class="swatch" style="background:${range[impls.indexOf(impl)]}"></span>${esc(impl)}`;
}

function placement(cores: number[] | null): string {
  return cores ? `cpu ${cores.join(',')}` : 'not pinned';
}

/** Where each party ran: this machine, or the topology's hosts with their roles and machines (docs/several-machines.md). */
function hostsCell(doc: RunInfo['doc']): string {
  const t = doc.machine.topology;
  if (!t) return 'this machine (loopback)';
  return t.hosts
    .map(
      (h) =>
        `<b>${esc(h.name)}</b> ${esc(h.roles.join(', '))}: ${esc(h.address)} via ${esc(h.via)}, ${placement(h.cores)}; ${esc(h.machine.hostname)}, ${h.machine.cores} cores`,
    )
    .join('<br>');
}

/** One column per run, one row per property: easier to read and compare than one wide row per run. */
function runsTable(report: ApiReport): string {
  const fields: [string, (run: RunInfo) => string][] = [
    ['implementation', ({ doc }) => `<b>${swatch(docLabel(doc), report.impls)}</b>`],
    ['run', ({ doc }) => `<code>${esc(doc.runId)}</code>`],
    ['cases shown', ({ casesUsed }) => (casesUsed ? String(casesUsed) : 'none: superseded by a newer run')],
    ['framework', ({ doc }) => `${esc(doc.implementation.framework.name)} ${esc(doc.implementation.framework.version)}`],
    ['runtime', ({ doc }) => `${esc(doc.implementation.runtime.name)} ${esc(doc.implementation.runtime.version)}`],
    ['commit', ({ doc }) => `<code>${esc(doc.source.commit?.slice(0, 12) ?? 'none')}</code>${doc.source.dirty ? ' (uncommitted changes)' : ''}`],
    ['provider', ({ doc }) => esc(doc.provider)],
    ['database', ({ doc }) => `${esc(doc.database.engine)} ${esc(doc.database.version)}, pool ${doc.implementation.poolSize ?? '?'}`],
    [
      'machine',
      ({ doc }) => `${esc(doc.machine.cpuModel)}, ${doc.machine.cores} cores, ${mib(doc.machine.memoryBytes / 1024)} GiB, Linux ${esc(doc.machine.kernel)}`,
    ],
    [
      'core placement',
      ({ doc }) =>
        `server ${placement(doc.machine.placement.implementation)}; k6 ${placement(doc.machine.placement.generator)}; database ${placement(doc.machine.placement.database)}`,
    ],
    ['hosts', ({ doc }) => hostsCell(doc)],
    ['load generator', ({ doc }) => `${esc(doc.generator.name)} ${esc(doc.generator.version)}`],
    ['generator ceiling', ({ doc }) => ceilingCell(doc)],
    ['machine at the start', ({ doc }) => noiseCell(doc)],
    ['started', ({ doc }) => esc(doc.startedAt.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC'))],
    [
      'options',
      ({ doc }) =>
        [
          `${doc.options.quick ? '<b>QUICK</b>, ' : ''}REPEAT ${doc.options.repeat}, ${doc.options.durationSeconds} s${esc(switchedNote(doc.options.switchedSlices))} + ${doc.options.warmupSeconds} s warm-up${doc.options.firstWarmupSeconds !== undefined ? ` (${doc.options.firstWarmupSeconds} s before a case's first load)` : ''}${doc.options.warmupIterations ? `, after warm-up iterations until steady within ${doc.options.warmupIterations.steadyWithinPercent}% (≤ ${doc.options.warmupIterations.max})` : ''}`,
          `${esc(doc.options.protocols.join(', '))}; ${esc(doc.options.models.join(', '))} model${doc.options.cases ? `; cases ${esc(doc.options.cases)}` : ''}`,
          doc.options.restartBetweenCases ? 'restarted between cases' : '',
        ]
          .filter(Boolean)
          .join('<br>'),
    ],
    ['file', ({ file }) => `<code>${esc(file)}</code>`],
  ];
  return table(
    ['', ...report.runs.map(() => '')],
    fields.map(([name, f]) => [name, ...report.runs.map(f)]),
    1,
    'runs',
  );
}

function flags(r: CaseResult): string {
  const out: string[] = [];
  if (r.n < MIN_REPETITIONS) out.push(`<span class="few">too few repetitions</span>`);
  else if (r.n < MIN_VERDICT_REPETITIONS) out.push(`<span class="few">descriptive only</span>`);
  if (r.generatorBound) out.push(`<span class="slower">generator-bound ×${r.generatorBound}</span>`);
  if (r.errorCount) out.push(`<span class="slower">${r.errorCount} errors</span>`);
  if (r.dropped) out.push(`${r.dropped} dropped`);
  return out.join('<br>');
}

function throughputTable(group: CaseGroup): string {
  // wrk's column only where a case of the group was cross-checked (CROSSCHECK=wrk).
  const crossChecked = group.rows.some((row) => row.results.some((r) => r.case.crossCheck));
  const rows = group.rows.flatMap((row) =>
    row.results.map((r, i) => [
      i === 0 ? esc(caseLabel(row.parameters)) : '',
      esc(r.impl),
      String(r.n),
      `<b>${rate(r.throughput.median)}</b>`,
      r.throughput.ci ? interval(r.throughput.ci, rate) : '<span class="few">—</span>',
      ...(crossChecked ? [crossCheckCell(r)] : []),
      r.baseline ? `${rate(r.baseline.throughput.median)} <small>(${r.baseline.tier})</small>` : '—',
      r.baseline ? ratioWithInterval(r.baseline.ratio, share) : '—',
      flags(r),
    ]),
  );
  return table(
    [
      'case',
      'impl',
      'reps',
      'median req/s',
      `${CONFIDENCE * 100}% CI`,
      ...(crossChecked ? ['wrk req/s (× k6)'] : []),
      'limit req/s (tier)',
      'share of the limit [CI]',
      'flags',
    ],
    rows,
    2,
  );
}

function latencyTable(group: CaseGroup): string {
  const rows = group.rows.flatMap((row) =>
    row.results.map((r, i) => [
      i === 0 ? esc(caseLabel(row.parameters)) : '',
      esc(r.impl),
      ms(r.latency.min),
      `<b>${ms(r.latency.median)}</b> <small>${interval(r.latencyMedian.ci, ms)}</small>`,
      ms(r.latency.mean),
      `<b>${ms(r.latency.p95)}</b> <small>${interval(r.latencyP95.ci, ms)}</small>`,
      ms(r.latency.p99),
      ms(r.latency.max),
    ]),
  );
  return table(['case', 'impl', 'min', 'median [CI]', 'mean', 'p95 [CI]', 'p99', 'max'], rows, 2);
}

/** Each served case's warm-up iterations (options.warmupIterations), or '' when none ran. */
function warmupTable(group: CaseGroup): string {
  const rows = group.rows.flatMap((row) =>
    row.results
      .filter((r) => r.case.warmup)
      .map((r, i) => [
        i === 0 ? esc(caseLabel(row.parameters)) : '',
        esc(r.impl),
        String(r.case.warmup!.iterations.length),
        r.case.warmup!.iterations.map((it) => rate(it.throughput)).join(' → '),
        r.case.warmup!.steady ? 'steady' : '<span class="slower">still rising</span>',
        r.case.repetitions.map((rep) => rate(rep.throughput)).join(', '),
      ]),
  );
  return rows.length ? table(['case', 'impl', 'iterations', 'warm-up req/s', 'ended', 'recorded repetitions req/s'], rows, 2) : '';
}

function usageTable(group: CaseGroup): string {
  const rows = group.rows.flatMap((row) =>
    row.results.map((r, i) => [
      i === 0 ? esc(caseLabel(row.parameters)) : '',
      esc(r.impl),
      r.server ? percent(r.server.cpuPeak) : '—',
      r.server ? percent(r.server.cpuMean) : '—',
      r.server ? mib(r.server.rssPeak) : '—',
      r.generator ? percent(r.generator.cpuPeak) : '—',
      r.generator ? percent(r.generator.cpuMean) : '—',
      `#${r.representative.index}`,
    ]),
  );
  return table(['case', 'impl', 'server CPU peak', 'server CPU mean', 'server RSS peak (MiB)', 'k6 CPU peak', 'k6 CPU mean', 'plotted rep.'], rows, 2);
}

const VERDICT_TEXT: Record<Verdict, string> = {
  faster: 'faster',
  slower: 'slower',
  'no significant difference': 'no significant difference',
  descriptive: `descriptive only (< ${MIN_VERDICT_REPETITIONS} reps)`,
  'too few repetitions': 'too few repetitions',
};

function verdictCell(v: Verdict, text: string = VERDICT_TEXT[v]): string {
  const cls = v === 'faster' ? 'faster' : v === 'slower' ? 'slower' : v === 'too few repetitions' || v === 'descriptive' ? 'few' : 'nsd';
  return `<span class="${cls}">${esc(text)}</span>`;
}

/** The verdict columns of one comparison: p raw (adjusted), the raw verdict, the adjusted one. */
function verdictCells(c: Verdicts): string[] {
  return [c.test ? `${pValue(c.test.p)} <small>(${pValue(c.pAdjusted)})</small>` : '—', verdictCell(c.rawVerdict), `<b>${verdictCell(c.verdict)}</b>`];
}

const VERDICT_HEADS = ['p (adj.)', 'raw verdict', 'verdict'];

function familyNote(f: FamilyCounts, what: string): string {
  const aa = (n: number) => `${n} of ${f.tested}`;
  return f.tested
    ? `Family: ${what} — ${f.tested} tested comparisons, adjusted together (Benjamini–Hochberg). Declared faster or slower: ${aa(f.raw)} raw, ${aa(f.adjusted)} after the adjustment.`
    : `No comparison here has ${MIN_VERDICT_REPETITIONS} repetitions per implementation, so none gets a verdict.`;
}

function pairTable(report: ApiReport, pair: PairComparison): string {
  const byId = new Map(report.groups.flatMap((g) => g.rows.map((row) => [row.id, row] as const)));
  const rows = pair.cases.map((c) => {
    const row = byId.get(c.caseId)!;
    return [
      `${esc(PROTOCOL_NAMES[row.protocol] ?? row.protocol)} ${esc(row.model)}`,
      esc(caseLabel(row.parameters)),
      `${rate(c.throughput.medianA)} / ${rate(c.throughput.medianB)}`,
      `${relative(c.throughput.ratio)} <small>${interval(c.throughput.ci, relative)}</small>`,
      detectable(c.throughput),
      ...verdictCells(c.throughput),
      `${ms(c.p95.medianA)} / ${ms(c.p95.medianB)}`,
      `${relative(c.p95.ratio)} <small>${interval(c.p95.ci, relative)}</small>`,
      detectable(c.p95),
      ...verdictCells(c.p95),
      ...(c.cpu
        ? [
            `${c.cpu.medianA.toFixed(0)} / ${c.cpu.medianB.toFixed(0)}`,
            `${relative(c.cpu.ratio)} <small>${interval(c.cpu.ci, relative)}</small>`,
            detectable(c.cpu),
            ...verdictCells(c.cpu),
          ]
        : ['—', '—', '—', '—', '—', '—']),
    ];
  });
  const a = esc(pair.a);
  const b = esc(pair.b);
  return `<h4>${swatch(pair.a, report.impls)} vs ${swatch(pair.b, report.impls)}</h4>
<p class="note">Verdicts are ${a}'s (for p95 latency and CPU µs per request, lower is faster). ${pair.cases.some((c) => c.throughput.paired) ? `The implementations ran in interleaved slices: a difference is the Hodges–Lehmann estimate of the pairs' ratios ${a}/${b} − 1 with its ${CONFIDENCE * 100}% signed-rank interval; p is the exact signed-rank test's` : `A difference is the ratio of the medians ${a}/${b} − 1, with its ${CONFIDENCE * 100}% bootstrap interval; p is the exact Mann–Whitney test's`}, in brackets adjusted over the family; the verdict is the adjusted one, the raw verdict treats the row as if it were alone. MDE: the smallest difference the comparison could have detected (80% power, its own spread; bench/README.md). ${familyNote(pair.family, 'the throughput, p95 and CPU per request of every case in this table')} Precision: ${esc(precisionLine(pair.cases))}.</p>
${pair.cases.length ? table(['protocol', 'case', `req/s ${a} / ${b}`, 'throughput difference [CI]', 'MDE', ...VERDICT_HEADS, `p95 ms ${a} / ${b}`, 'p95 difference [CI]', 'MDE', ...VERDICT_HEADS, `CPU µs/req ${a} / ${b}`, 'CPU difference [CI]', 'MDE', ...VERDICT_HEADS], rows, 2, 'cmp cases') : '<p class="note">No case in common.</p>'}`;
}

async function groupSection(report: ApiReport, group: CaseGroup): Promise<string> {
  const title = `${PROTOCOL_NAMES[group.protocol] ?? group.protocol} · ${MODEL_NAMES[group.model] ?? group.model}`;
  const cpu = usageSpec(group, report.impls, 'cpu');
  const rss = usageSpec(group, report.impls, 'rss');
  const cpuPerRequest = cpuSpec(group, report.impls);
  const timeline = timelineSpec(group, report.impls);
  const warmup = warmupTable(group);
  return `<section id="${esc(report.id)}-${esc(group.key.replace('/', '-'))}">
<h3>${esc(title)}</h3>
<h4>Throughput</h4>
<figure>${await renderSvg(throughputSpec(group, report.impls))}
<figcaption>Bars: median successful requests per second over the repetitions; black lines: its ${CONFIDENCE * 100}% bootstrap confidence interval (none with fewer than ${MIN_REPETITIONS} repetitions); dark tick: the limit, the database alone in the same run with the same queries and concurrency, through the native client where it ran (else the driver with the same pool). Each panel has its own y scale.</figcaption></figure>
${throughputTable(group)}
${
  cpuPerRequest
    ? `<h4>CPU per request</h4>
<figure>${await renderSvg(cpuPerRequest)}
<figcaption>${CPU_CAPTION}</figcaption></figure>
${cpuTable(group)}`
    : ''
}
<h4>Latency</h4>
<figure>${await renderSvg(latencySpec(group, report.impls))}
<figcaption>Each statistic is the median over the repetitions of that statistic per repetition (milliseconds, measured window only).</figcaption></figure>
${latencyTable(group)}
${
  timeline
    ? `<h4>Latency over the first seconds (warm-up included)</h4>
<figure class="timeline">${await renderSvg(timeline)}
<figcaption>${TIMELINE_CAPTION}</figcaption></figure>`
    : ''
}
${
  warmup
    ? `<h4>Warm-up iterations</h4>
<p class="note">${WARMUP_NOTE}</p>
${warmup}`
    : ''
}
${await overTimeParts(group, report.impls)}
${
  cpu && rss
    ? `<h4>Server CPU and memory over time</h4>
<figure>${await renderSvg(cpu)}<figcaption>The implementation's whole process tree, sampled from /proc, in the repetition closest to the median throughput. 100% = one core busy.</figcaption></figure>
<figure>${await renderSvg(rss)}<figcaption>Resident set size of the same process tree (MiB).</figcaption></figure>`
    : ''
}
${usageTable(group)}
</section>`;
}

function warningList(items: string[], cls = ''): string {
  return items.length ? `<div class="warn ${cls}"><ul>${items.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>` : '';
}

/** The cases runs recorded as failed: why, and what was measured before (not used anywhere else on the page). */
function failureSection(report: ApiReport): string {
  const rows = report.failures.map((f) => [
    `<code>${esc(f.case.id)}</code>`,
    isDatabaseAlone(f.case.protocol) ? `database alone (${tierOf(f.case)})` : esc(f.impl),
    `<code>${esc(f.runId)}</code>`,
    `<span class="slower">${esc(f.failure.kind)}</span>`,
    f.failure.repetition ? String(f.failure.repetition) : 'before the first',
    `<span style="white-space:normal">${esc(f.failure.reason)}</span>`,
    f.measured
      ? `${f.measured.n}${f.case.repetitions.at(-1)?.partial ? ' (last partial)' : ''}: ${rate(f.measured.throughput)} req/s, p95 ${ms(f.measured.p95)} ms`
      : 'nothing',
  ]);
  return `<h3>Failed cases</h3>
<p class="note">These cases did not complete: the run recorded why and went on. They are left out of every table, chart and comparison on this page (an older run's measurement of the same case is shown instead, if there is one); what their repetitions measured before the failure is summarised here.</p>
${table(['case', 'implementation', 'run', 'failure', 'in repetition', 'reason', 'measured before it (median)'], rows, 3)}`;
}

async function apiSection(report: ApiReport): Promise<string> {
  const tiersCpu = tiersCpuSpec(report.tiers);
  const groups: string[] = [];
  for (const g of report.groups) groups.push(await groupSection(report, g));
  return `<section id="${esc(report.id)}">
<h2>API: ${esc(report.api)}${report.calibration ? ` — A/A calibration: ${esc(report.calibration.impl)} against itself` : ''}</h2>
<p>${report.impls.length === 1 ? 'Implementation' : 'Implementations'}: ${report.impls.map((i) => swatch(i, report.impls)).join(', ')}.</p>
${report.calibration ? calibrationNote(report.calibration, report.impls) : ''}
<h3>Runs</h3>
${runsTable(report)}
${report.warnings.length ? `<h3>Warnings</h3>${warningList(report.warnings)}` : '<p class="note">No warnings: no generator-bound repetitions, errors or dropped iterations.</p>'}
${report.failures.length ? failureSection(report) : ''}
${
  report.tiers.length
    ? `<h3>Where the time and CPU go: native, driver, HTTP</h3>
<p class="note">${esc(TIERS_CAPTION)}</p>
${tiersCpu ? `<figure>${await renderSvg(tiersCpu)}<figcaption>${esc(TIERS_CPU_CAPTION)}</figcaption></figure>` : ''}
${tiersTable(report.tiers)}`
    : ''
}
${groups.join('\n')}
${report.requestTypes.length ? requestTypeSection(report) : ''}
${report.claims ? claimsSection(report.claims) : ''}
${report.pairs.length ? `<h3>Comparisons</h3>${report.pairs.map((p) => pairTable(report, p)).join('\n')}` : ''}
</section>`;
}

function requestTypeSection(report: ApiReport): string {
  const label = (r: TypeRow) => `${esc(r.protocol)}/${esc(r.model)} · ${esc(caseLabel(r.parameters))}`;
  const rows = report.requestTypes.flatMap((row) =>
    row.results.map((r, i) => [
      i === 0 ? label(row) : '',
      i === 0 ? `<b>${esc(row.type)}</b>` : '',
      esc(r.impl),
      String(r.n),
      `<b>${ms(r.mean.median)}</b> <small>${interval(r.mean.ci, ms)}</small>`,
      `${ms(r.meanOfMeans)} ± ${ms(r.meanSd)}`,
      r.requestSd === null ? '—' : ms(r.requestSd),
      `${ms(r.median.median)} <small>${interval(r.median.ci, ms)}</small>`,
      ms(r.p95),
      ms(r.p99),
      rate(r.throughput),
      r.serverMean === null ? '—' : ms(r.serverMean),
      r.serverMean === null ? '—' : ms(Math.max(0, r.mean.median - r.serverMean)),
      i === 0 && row.baseline
        ? `${ms(row.baseline.mean.median)}${
            Object.keys(row.baseline.parts).length
              ? ` <small>(${Object.entries(row.baseline.parts)
                  .map(([p, v]) => `${esc(p)} ${ms(v)}`)
                  .join(', ')})</small>`
              : ''
          }`
        : i === 0
          ? '—'
          : '',
      r.errors ? `<span class="slower">${r.errors}</span>` : '0',
    ]),
  );
  const pairs = report.requestTypes.flatMap((row) =>
    row.comparisons.map((c) => [
      label(row),
      esc(row.type),
      `${esc(c.a)} / ${esc(c.b)}`,
      `${ms(c.mean.medianA)} / ${ms(c.mean.medianB)}`,
      `${relative(c.mean.ratio)} <small>${interval(c.mean.ci, relative)}</small>`,
      ...verdictCells(c.mean),
      `${relative(c.median.ratio)} <small>${interval(c.median.ci, relative)}</small>`,
      ...verdictCells(c.median),
    ]),
  );
  return `<h3>Per request type</h3>
<p class="note">Milliseconds. <b>mean</b>: the median over the repetitions of each repetition's mean time of that request type (the papers' figure), with its ${CONFIDENCE * 100}% bootstrap interval; <b>mean of means ± sd</b>: the papers' way (the average of the repetitions' means) and the spread of the repetitions' means; <b>sd per request</b>: the spread of the requests' times within a repetition (Bombardier's "Stdev"), the median over the repetitions; median, p95, p99 and req/s likewise medians over the repetitions. <b>server</b>: the implementation's own time (Server-Timing app;dur=, framework entry to response written); <b>network + client</b>: mean − server. <b>database alone</b>: the same operations through the MongoDB driver, with their parts (bcrypt, database).</p>
${table(['case', 'request type', 'impl', 'reps', 'mean [CI]', 'mean of means ± sd', 'sd per request', 'median [CI]', 'p95', 'p99', 'req/s', 'server', 'network + client', 'database alone', 'errors'], rows, 3)}
${
  pairs.length
    ? `<h4>Per request type: comparisons</h4>
<p class="note">The first implementation's time over the second's − 1 (negative = the first is faster), for the mean and the median per request type, with the ${CONFIDENCE * 100}% bootstrap interval; verdicts are the first's, from the exact Mann–Whitney test (p, in brackets adjusted). ${typeFamilies(
        report.requestTypes,
      )
        .map((f) => `${esc(f.a)} vs ${esc(f.b)}: ${familyNote(f, 'the mean and median of every row of this pair')}`)
        .join(' ')}</p>
${table(['case', 'request type', 'pair', 'mean ms', 'mean difference [CI]', ...VERDICT_HEADS, 'median difference [CI]', ...VERDICT_HEADS], pairs, 3, 'cmp types')}`
    : ''
}`;
}

function calibrationNote(c: NonNullable<ApiReport['calibration']>, labels: readonly string[]): string {
  const expected = (c.counts.tested * ALPHA).toFixed(1);
  return `<div class="warn"><b>A/A calibration run</b> <code>${esc(c.runId)}</code>: ${esc(c.impl)} was measured as ${labels.length} copies in one run (${labels.map(esc).join(', ')}), started, alternated and measured exactly as different implementations are. Nothing differs, so every "faster" or "slower" below is a false one. Over its ${c.counts.tested} tested comparisons: <b>${c.counts.raw}</b> declared on the raw p-values (by chance at most about ${expected}: ${ALPHA * 100}% of them), <b>${c.counts.adjusted}</b> after the adjustment (a calibrated rule shows any at all in at most ${ALPHA * 100}% of such runs).</div>`;
}

const METHOD = `<h2>Method</h2>
<p>Every number is the median over a case's repetitions, with a ${CONFIDENCE * 100}% percentile-bootstrap interval (${RESAMPLES.toLocaleString('en-US')} resamples; seeded with ${BOOTSTRAP_SEED} mixed with a hash of the API, case, implementation and run, so the page is reproducible). The size of a difference is the ratio of the two medians with its bootstrap interval (both groups resampled independently). That interval does not decide whether there is a difference: with few repetitions it is too narrow (in simulated A/A comparisons at 3 against 3 it excluded 1 in 10% of cases, not 5%). Below ${MIN_REPETITIONS} repetitions there is no interval; from ${MIN_REPETITIONS} to ${MIN_VERDICT_REPETITIONS - 1} it is <i>descriptive only</i>.</p>
<p>A verdict needs ${MIN_VERDICT_REPETITIONS} repetitions per implementation and comes from the exact Mann–Whitney rank test (ties as midranks), whose error rate holds at any n but whose smallest two-sided p is 2 / C(n+m, n): 0.1 at 3 against 3 (three repetitions can never show a difference at ${ALPHA}), 0.0079 at 5 against 5, 0.00001 at 10 against 10. The p-values of a <i>family</i> — every comparison of one pair of implementations in one table of one API section — are adjusted together (Benjamini–Hochberg); "faster" or "slower" where the adjusted p ≤ ${ALPHA} and the ratio of the medians agrees, the raw verdict beside it. Benjamini–Hochberg rather than Holm: when nothing differs both keep the chance of any verdict in a table at ${ALPHA * 100}%, but at 5 repetitions Holm could declare nothing in a table of more than 6 comparisons. Checked by seeded A/A simulation (<code>bench/test/stats/calibration.test.ts</code>) and on the real system by A/A runs (<code>make bench IMPL=x,x</code>, shown as calibration sections).</p>`;

export async function renderHtml(reports: ApiReport[], fileWarnings: string[]): Promise<string> {
  const sections: string[] = [];
  for (const r of reports) sections.push(await apiSection(r));
  const contents = reports
    .map(
      (r) =>
        `<li><a href="#${esc(r.id)}">${esc(r.api)}${r.calibration ? ` (A/A calibration ${esc(r.calibration.runId)})` : ''}</a>: ${r.groups.map((g) => `<a href="#${esc(r.id)}-${esc(g.key.replace('/', '-'))}">${esc(g.key)}</a>`).join(', ')}</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>fairbench report</title><style>${CSS}</style></head>
<body>
<h1>fairbench benchmark report</h1>
${METHOD}
${fileWarnings.length ? `<h2>Files skipped</h2>${warningList(fileWarnings, 'bad')}` : ''}
${reports.length ? `<ul>${contents}</ul>` : '<p>No benchmark results found: run <code>make bench</code> first.</p>'}
${sections.join('\n')}
</body></html>
`;
}
