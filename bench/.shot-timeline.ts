// (scratch, not committed) screenshot of the report's first warm-up charts
import { openReport, checkCharts, checkOverflow } from './src/report/browser.ts';
const [file, out] = process.argv.slice(2);
const { browser, page } = await openReport(file!);
try {
  console.log(JSON.stringify(await checkCharts(page)));
  const o = await checkOverflow(page);
  console.log(JSON.stringify({ checked: o.checked, overflowing: o.overflowing.length, clipped: o.clippedLabels.length, pageOverflow: o.pageOverflow }));
  const figs = page.locator('figure.timeline');
  console.log('timeline figures', await figs.count());
  await figs.first().screenshot({ path: out! });
} finally {
  await browser.close();
}
