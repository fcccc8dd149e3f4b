// make screenshot [REPORT=results/report/<runId>.html] → docs/report.png: the first screen
// (1400×900) of a rendered report in headless Chromium, the picture the README shows.
// Without REPORT, the newest page under results/report/ (make bench writes one per run).
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { openReport, screenshotTop } from '../report/html/browser.ts';

await runMain('screenshot', async () => {
  const { values } = parseCli({ options: { report: { type: 'string' }, out: { type: 'string' } } });
  const report = values.report ? resolve(values.report) : await newestReport();
  const out = resolve(values.out ?? join(repoRoot, 'docs', 'report.png'));
  const { browser, page } = await openReport(report);
  try {
    await screenshotTop(page, out);
  } finally {
    await browser.close();
  }
  console.log(`screenshot: ${relative(repoRoot, report)} → ${relative(repoRoot, out)}`);
  return true;
});

async function newestReport(): Promise<string> {
  const dir = join(resultsDir, 'report');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.html'));
  if (names.length === 0) throw new UsageError(`no report under ${relative(repoRoot, dir)}: run make bench first, or give REPORT=<file.html>`);
  const dated = await Promise.all(names.map(async (n) => ({ file: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })));
  return dated.sort((a, b) => b.mtime - a.mtime)[0]!.file;
}
