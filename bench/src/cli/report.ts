// make report: every result under results/bench/ → results/report/index.html.
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli } from '@fairbench/harness/cli/usage.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

await runMain('report', async () => {
  const { values } = parseCli({ options: { results: { type: 'string' }, out: { type: 'string' } } });
  const { writeReport } = await import('../report/index.ts'); // Vega loads once the options are right
  const results = values.results ?? join(ROOT, 'results');
  const out = values.out ?? join(results, 'report', 'index.html');
  const report = await writeReport(results, out);
  for (const w of report.warnings) console.warn(`report: warning: ${w}`);
  if (report.runs === 0) console.log(`report: no valid results under ${join(results, 'bench')}: run make bench first`);
  else
    console.log(
      `report: ${report.runs} run${report.runs === 1 ? '' : 's'} of ${report.apis.map((a) => `${a.api} (${a.impls.join(', ')}${a.calibration ? `: A/A calibration, ${a.calibration.counts.raw} raw and ${a.calibration.counts.adjusted} adjusted verdicts of ${a.calibration.counts.tested}` : ''})`).join(', ')}`,
    );
  console.log(report.file);
  return true;
});
