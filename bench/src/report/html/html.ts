// The report page: one self-contained HTML file (inline CSS, inline SVG, no script,
// nothing fetched at view time).
import { ALPHA, BOOTSTRAP_SEED, CONFIDENCE, MIN_REPETITIONS, MIN_VERDICT_REPETITIONS, RESAMPLES } from '../../stats/index.ts';
import { docLabel } from '../../record/copies.ts';
import { caseLabel, cpuSpec, latencySpec, renderSvg, throughputSpec, timelineSpec, usageSpec } from './charts.ts';

const WARMUP_NOTE =
  'Unrecorded repetitions before the recorded ones, the same load, each after the same data reset and idle wait: they go on until an iteration\'s rate rises less than the profile\'s threshold above the one before (or its maximum is reached: "still rising"). No statistic uses them; the same rule applies to every implementation.';
const TIMELINE_CAPTION =
  "Each case's first load, the first a freshly started implementation serves (it is restarted for every case; its first warm-up iteration where the case had them): the median (solid) and p95 (dashed) latency of the requests that ended in each second since the load began, log scale; the grey dotted rule is the end of the warm-up (the profile's longer first warm-up, the same for every implementation), where the measured window begins. A runtime that compiles as it runs (the JVM's JIT, V8's and JavaScriptCore's tiers) shows its warm-up as slow first seconds.";
import { interval, mib, ms, percent, rate, ratioWithInterval, share, switchedNote } from '../format.ts';
import type { ApiReport, CaseGroup, CaseResult, RunInfo } from '../model.ts';
import type { WorkSummary } from '../rows.ts';
import type { BenchResult } from '../../record/result-document.ts';
import { cpuTable, ceilingCell, crossCheckCell, noiseCell, CPU_CAPTION } from './cpu.ts';
import { esc, PROTOCOL_NAMES, swatch, table } from './html-parts.ts';
import { tiersCpuSpec, tiersTable, TIERS_CAPTION, TIERS_CPU_CAPTION } from './tiers.ts';

export { esc };
import { claimsSection } from './claims.ts';
import { pairTable } from './pair-table.ts';
import { failureSection, requestTypeSection } from './sections.ts';
import { overTimeParts } from './over-time.ts';
import { anchors, overviewSection } from './overview.ts';

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
section.answer h2{font-size:18px;margin:14px 0 6px;border-bottom-width:1px}section.answer p.note{margin:2px 0 6px}figure.answer{margin:4px 0 6px}
p.below{margin:4px 0 18px;font-size:13px}p.lead{margin:0 0 4px;color:#555;font-size:13px}
`;

const MODEL_NAMES: Record<string, string> = {
  closed: 'closed model (fixed virtual users, each looping)',
  open: 'open model (constant arrival rate)',
  arrivals: 'arrivals (N users started evenly over T seconds, each running its flow once)',
  sequential: 'sequential (one client, the requests one after another)',
};

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

/** The run's commit; a revision side's implementation is from another commit, named as it was asked for. */
function commitCell(doc: BenchResult): string {
  const run = `<code>${esc(doc.source.commit?.slice(0, 12) ?? 'none')}</code>${doc.source.dirty ? ' (uncommitted changes)' : ''}`;
  const revision = doc.implementation.revision;
  if (revision === undefined) return run;
  return `implementation <code>${esc(revision.commit.slice(0, 12))}</code> (<code>${esc(revision.revision)}</code>); harness ${run}`;
}

/** One column per run, one row per property: easier to read and compare than one wide row per run. */
function runsTable(report: ApiReport): string {
  const fields: [string, (run: RunInfo) => string][] = [
    ['implementation', ({ doc }) => `<b>${swatch(docLabel(doc), report.impls)}</b>`],
    ['run', ({ doc }) => `<code>${esc(doc.runId)}</code>`],
    ['cases shown', ({ casesUsed }) => (casesUsed ? String(casesUsed) : 'none: superseded by a newer run')],
    ['framework', ({ doc }) => `${esc(doc.implementation.framework.name)} ${esc(doc.implementation.framework.version)}`],
    ['runtime', ({ doc }) => `${esc(doc.implementation.runtime.name)} ${esc(doc.implementation.runtime.version)}`],
    ['commit', ({ doc }) => commitCell(doc)],
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
          `${doc.options.quick ? '<b>QUICK</b>, ' : ''}REPEAT ${doc.options.repeat}, ${doc.options.durationSeconds} s${esc(switchedNote(doc.options))} + ${doc.options.warmupSeconds} s warm-up${doc.options.firstWarmupSeconds !== undefined ? ` (${doc.options.firstWarmupSeconds} s before a case's first load)` : ''}${doc.options.warmupIterations ? `, after warm-up iterations until steady within ${doc.options.warmupIterations.steadyWithinPercent}% (≤ ${doc.options.warmupIterations.max})` : ''}`,
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

/** Proof of work beside the figure: how many of its repetitions the database's counters checked. */
function workCell(w: WorkSummary, n: number): string {
  if (w.unrecorded === n) return '<span class="few">—</span>';
  const parts = [
    w.checked ? `checked ${w.checked === n ? 'all' : `${w.checked} of ${n}`}` : '',
    w.notCheckable ? `<span class="few" title="${esc(w.reasons.join('; '))}">not checkable ×${w.notCheckable}</span>` : '',
  ];
  return parts.filter(Boolean).join('<br>');
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
      workCell(r.work, r.n),
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
      'work',
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

async function apiSection(report: ApiReport): Promise<string> {
  const tiersCpu = tiersCpuSpec(report.tiers);
  const groups: string[] = [];
  for (const g of report.groups) groups.push(await groupSection(report, g));
  return `<section id="${esc(report.id)}">
<h2>API: ${esc(report.api)}${report.calibration ? ` — A/A calibration: ${esc(report.calibration.impl)} against itself` : ''}</h2>
<p>${report.impls.length === 1 ? 'Implementation' : 'Implementations'}: ${report.impls.map((i) => swatch(i, report.impls)).join(', ')}.</p>
${report.calibration ? calibrationNote(report.calibration, report.impls) : ''}
<h3 id="${esc(anchors.runs(report))}">Runs</h3>
${runsTable(report)}
${
  report.warnings.length
    ? `<h3 id="${esc(anchors.warnings(report))}">Warnings</h3>${warningList(report.warnings)}`
    : `<p class="note" id="${esc(anchors.warnings(report))}">No warnings: no generator-bound repetitions, errors or dropped iterations.</p>`
}
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

function calibrationNote(c: NonNullable<ApiReport['calibration']>, labels: readonly string[]): string {
  const expected = (c.counts.tested * ALPHA).toFixed(1);
  return `<div class="warn"><b>A/A calibration run</b> <code>${esc(c.runId)}</code>: ${esc(c.impl)} was measured as ${labels.length} copies in one run (${labels.map(esc).join(', ')}), started, alternated and measured exactly as different implementations are. Nothing differs, so every "faster" or "slower" below is a false one. Over its ${c.counts.tested} tested comparisons: <b>${c.counts.raw}</b> declared on the raw p-values (by chance at most about ${expected}: ${ALPHA * 100}% of them), <b>${c.counts.adjusted}</b> after the adjustment (a calibrated rule shows any at all in at most ${ALPHA * 100}% of such runs).</div>`;
}

const METHOD = `<h2 id="${anchors.method}">Method</h2>
<p>Every number is the median over a case's repetitions, with a ${CONFIDENCE * 100}% percentile-bootstrap interval (${RESAMPLES.toLocaleString('en-US')} resamples; seeded with ${BOOTSTRAP_SEED} mixed with a hash of the API, case, implementation and run, so the page is reproducible). The size of a difference is the ratio of the two medians with its bootstrap interval (both groups resampled independently). That interval does not decide whether there is a difference: with few repetitions it is too narrow (in simulated A/A comparisons at 3 against 3 it excluded 1 in 10% of cases, not 5%). Below ${MIN_REPETITIONS} repetitions there is no interval; from ${MIN_REPETITIONS} to ${MIN_VERDICT_REPETITIONS - 1} it is <i>descriptive only</i>.</p>
<p>A comparison of two implementations of one run takes the most structure its repetitions have. Over <i>process pairs</i> (each case's implementations started several times, every start warmed and measured in turn): one figure per pair of processes, the Hodges–Lehmann estimate of its slices' log ratios, and Student's t interval and test over the pairs, so that a verdict is about the implementations, not about two processes. Over <i>switched slices</i> of one pair of processes: the Hodges–Lehmann estimate of the slices' log ratios with Wilcoxon's signed-rank test. Otherwise the groups of repetitions: a verdict needs ${MIN_VERDICT_REPETITIONS} repetitions per implementation and comes from the exact Mann–Whitney rank test (ties as midranks), whose error rate holds at any n but whose smallest two-sided p is 2 / C(n+m, n): 0.1 at 3 against 3 (three repetitions can never show a difference at ${ALPHA}), 0.0079 at 5 against 5, 0.00001 at 10 against 10. Repetitions set aside as invalid (server errors, broken data) are in no figure. The p-values of a <i>family</i> — every comparison of one pair of implementations in one table of one API section — are adjusted together (Benjamini–Hochberg); "faster" or "slower" where the adjusted p ≤ ${ALPHA} and the ratio of the medians agrees, the raw verdict beside it. Benjamini–Hochberg rather than Holm: when nothing differs both keep the chance of any verdict in a table at ${ALPHA * 100}%, but at 5 repetitions Holm could declare nothing in a table of more than 6 comparisons. Checked by seeded A/A simulation (<code>bench/test/stats/calibration.test.ts</code>) and on the real system by A/A runs (<code>make bench IMPL=x,x</code>, shown as calibration sections).</p>`;

/**
 * The answer first (per API, overview.ts), then what it rests on: the method, the files
 * skipped, and per API its runs, warnings and every table and chart.
 */
export async function renderHtml(reports: ApiReport[], fileWarnings: string[]): Promise<string> {
  const answers: string[] = [];
  const sections: string[] = [];
  for (const r of reports) {
    answers.push(await overviewSection(r));
    sections.push(await apiSection(r));
  }
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
${fileWarnings.length ? `<p class="lead"><a href="#skipped">${fileWarnings.length} result file${fileWarnings.length === 1 ? '' : 's'} skipped</a> (invalid or unreadable).</p>` : ''}
${reports.length ? answers.join('\n') : '<p>No benchmark results found: run <code>make bench</code> first.</p>'}
${METHOD}
${fileWarnings.length ? `<h2 id="skipped">Files skipped</h2>${warningList(fileWarnings, 'bad')}` : ''}
${reports.length ? `<ul>${contents}</ul>` : ''}
${sections.join('\n')}
</body></html>
`;
}
