import { loadResults } from './src/report/load.ts';
import { buildModel } from './src/report/model.ts';
const r = await loadResults('bench/test/fixtures/results');
console.time('model');
const m = buildModel(r.runs);
console.timeEnd('model');
for (const a of m) { console.log(a.api, a.impls, a.groups.map(g=>[g.key,g.rows.length]), a.warnings);
  for (const p of a.pairs) console.log(p.a, p.b, p.cases.map(c => `${c.caseId} ${c.throughput.ratio.toFixed(3)} ${c.throughput.ci?.low.toFixed(3)} ${c.throughput.ci?.high.toFixed(3)} ${c.throughput.verdict} | p95 ${c.p95.verdict}`));
}
