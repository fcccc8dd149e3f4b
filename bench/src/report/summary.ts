// One run as a Markdown table: what the runner prints at the end of `make bench`.
import { docLabel } from '../record/copies.ts';
import { MIN_REPETITIONS, MIN_VERDICT_REPETITIONS, type MedianEstimate } from '../stats/index.ts';
import { detectable, interval, ms, pValue, percent, rate, share, switchedNote } from './format.ts';
import { limitVerdicts } from './limit-verdicts.ts';
import { compareParameters, protocolRank, summarizeCase } from './model.ts';
import { isDatabaseAlone, tierOf, type BenchResult, type CaseFailure } from '../record/result-document.ts';
import { limitFor } from '../record/limit.ts';

export function summaryMarkdown(doc: BenchResult): string {
  const cases = [...doc.cases].sort(
    (a, b) =>
      protocolRank(a.protocol) - protocolRank(b.protocol) ||
      a.protocol.localeCompare(b.protocol) ||
      a.model.localeCompare(b.model) ||
      compareParameters(a.parameters, b.parameters),
  );
  const lines = [
    `**${docLabel(doc)}** on **${doc.api}**, run \`${doc.runId}\` (${doc.implementation.framework.name} ${doc.implementation.framework.version}, ${doc.implementation.runtime.name} ${doc.implementation.runtime.version}, ${doc.database.engine} ${doc.database.version}, k6 ${doc.generator.version}; REPEAT ${doc.options.repeat} × ${doc.options.durationSeconds} s${switchedNote(doc.options)}${doc.options.quick ? ', QUICK' : ''}${doc.wallSeconds !== undefined ? `; wall time ${Math.round(doc.wallSeconds)} s` : ''})`,
    '',
    ...(doc.generator.ceiling
      ? [
          `k6's ceiling here: ${rate(doc.generator.ceiling.rate)} req/s against ${doc.generator.ceiling.target}, ${doc.generator.ceiling.cpuPerRequestUs ?? '?'} µs of k6 CPU per request${doc.generator.ceiling.floor ? ` (${doc.generator.ceiling.overFloor ?? '?'} × its floor F = ${doc.generator.ceiling.floor.cpuPerRequestUs} µs, a plain http.get)` : ''}.`,
          '',
        ]
      : []),
    '| case | reps | median req/s [95% CI] | p95 ms [95% CI] | share of the limit [CI] | vs the limit: req/s, p95 (adj. p; MDE: the smallest detectable difference) | server µs/req | database µs/req | k6 CPU peak | share of k6 ceiling | flags |',
    '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  const limits = limitVerdicts(doc);
  const verdictOf = new Map(limits.cases.map((v) => [v.caseId, v]));
  for (const c of cases) {
    if (c.failure && c.repetitions.length === 0) {
      lines.push(`| ${c.id} | 0 | — | — | — | — | — | — | — | — | ${failureFlag(c.failure)} |`);
      continue;
    }
    const r = summarizeCase(doc.api, docLabel(doc), doc, c);
    const flags = [
      c.invalidRepetitions?.length ? `**INVALID ×${c.invalidRepetitions.length}** (set aside)` : '',
      c.failure ? failureFlag(c.failure) : '',
      r.n < MIN_REPETITIONS ? 'too few repetitions' : r.n < MIN_VERDICT_REPETITIONS ? 'descriptive only' : '',
      r.generatorBound ? `generator-bound ×${r.generatorBound}` : '',
      r.errorCount ? `${r.errorCount} errors` : '',
      r.dropped ? `${r.dropped} dropped` : '',
      r.ceiling?.above ? `near k6's ceiling ×${r.ceiling.above}` : '',
    ].filter(Boolean);
    const us = (e: MedianEstimate | null) => (e ? rate(e.median) : '—');
    const withCi = (e: MedianEstimate, f: (x: number) => string) => `${f(e.median)}${e.ci ? ` ${interval(e.ci, f)}` : ''}`;
    const tierLabel = limitFor(doc, c) === c ? `(the limit: ${tierOf(c)} tier)` : `(${tierOf(c)} tier)`;
    const limit = isDatabaseAlone(c.protocol)
      ? tierLabel
      : r.baseline
        ? `${share(r.baseline.ratio.ratio)}${r.baseline.ratio.ci ? ` ${interval(r.baseline.ratio.ci, share)}` : ''}`
        : '—';
    const v = verdictOf.get(c.id);
    const verdict = v
      ? `${v.throughput.verdict} (${pValue(v.throughput.pAdjusted)}; MDE ${detectable(v.throughput)}), ${v.p95.verdict} (${pValue(v.p95.pAdjusted)}; MDE ${detectable(v.p95)})`
      : isDatabaseAlone(c.protocol)
        ? tierLabel
        : '—';
    lines.push(
      `| ${c.id} | ${r.n}${c.repetitions.at(-1)?.partial ? ' (last partial)' : ''} | ${withCi(r.throughput, rate)} | ${withCi(r.latencyP95, ms)} | ${limit} | ${verdict} | ${us(r.cpuPerRequest.server)} | ${us(r.cpuPerRequest.database)} | ${r.generator ? percent(r.generator.cpuPeak) : '—'} | ${r.ceiling ? share(r.ceiling.share) : '—'} | ${flags.join(', ')} |`,
    );
  }
  if (limits.cases.length) {
    const tally = (pick: 'throughput' | 'p95') => {
      const n = (v: string) => limits.cases.filter((c) => c[pick].verdict === v).length;
      return `faster ${n('faster')}, slower ${n('slower')}, no significant difference ${n('no significant difference')}${n('descriptive') + n('too few repetitions') ? `, no verdict (too few repetitions) ${n('descriptive') + n('too few repetitions')}` : ''}`;
    };
    lines.push(
      '',
      `**Verdicts against the database alone** (${docLabel(doc)}'s throughput and p95 in each case against the same load on the database without HTTP or framework, through the native client where it ran, else the driver; exact Mann–Whitney over the repetitions, Benjamini–Hochberg over these ${limits.family.tested} comparisons): throughput: ${tally('throughput')}; p95: ${tally('p95')}.`,
    );
  }
  const failed = doc.cases.filter((c) => c.failure);
  if (failed.length)
    lines.push(
      '',
      `**${failed.length} of ${doc.cases.length} cases failed** (the run went on; their numbers, if any, are only what was measured before the failure):`,
      ...failed.map((c) => `- ${c.id}: ${c.failure!.kind}${c.failure!.repetition ? ` in repetition ${c.failure!.repetition}` : ''}: ${c.failure!.reason}`),
    );
  if (doc.complete === false)
    lines.push(
      '',
      `**Incomplete run**: ${doc.cases.length} of ${doc.plannedCases ?? '?'} planned cases recorded; \`make bench … RESUME=${doc.runId}\` with the same options continues it.`,
    );
  return lines.join('\n') + '\n';
}

function failureFlag(f: CaseFailure): string {
  return `**FAILED** (${f.kind})`;
}
