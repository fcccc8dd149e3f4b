// make serve IMPL=<impl> API=<api> → the implementation on a freshly seeded database
// (the conformance data set), for poking at by hand or with other tools, until Ctrl-C.
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { loadImplementation } from '@fairbench/harness/impl/manifest.ts';
import { conformanceApi } from '../apis.ts';
import { launchTarget } from '../launch-target.ts';
import { startDatabases } from '../run.ts';

const { values } = parseArgs({ options: { impl: { type: 'string' }, api: { type: 'string' } } });

await runMain('serve', async () => {
  if (!values.impl || !values.api) throw new Error('usage: make serve IMPL=<name> API=<api>');
  const impl = await loadImplementation(values.impl);
  const api = await conformanceApi(values.api);
  const databases = await startDatabases(api.manifest.databases);
  const { running } = await launchTarget({ impl, api }, databases);
  for (const db of databases.values()) console.log(`${db.kind}: ${db.url}`);
  console.log(`${impl.manifest.name} serves ${api.name} at ${running.baseUrl} (Ctrl-C stops everything)`);
  await running.process.exited;
  console.log(`${impl.manifest.name} exited: see results/logs/${impl.manifest.name}/server.log`);
  return false;
});
