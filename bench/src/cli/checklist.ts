// make checklist IMPL=<name>: what is done, missing and stale of adding that implementation
// (bench/src/checklist/), also before impl/<name> exists. It lives in bench, the layer that sees
// both gates (conformance's and the pact's), outside conformance/ and pact/src, whose files the
// verdicts' fingerprints cover (a change there would mark every verdict stale).
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implNames, missing, parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { checklist, formatChecklist } from '../checklist/checklist.ts';
import { loadContext } from '../checklist/context.ts';
import { gateFingerprints } from '../checklist/gate-fingerprints.ts';

await runMain('checklist', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' } } });
  // A runtime variant (express@bun) shares its folder's steps.
  const name = values.impl?.split('@')[0] ?? '';
  if (name === '') throw missing('IMPL', await implNames(), 'make checklist IMPL=express');
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new UsageError(`IMPL must be a folder name under impl/ (lower case, digits, '-'), got '${values.impl}'`);
  const ctx = await loadContext(repoRoot, name, gateFingerprints(name));
  console.log(formatChecklist(ctx, await checklist(ctx)));
  return true;
});
