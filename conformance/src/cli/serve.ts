// make serve IMPL=<impl> API=<api> → the implementation on a freshly seeded database
// (the conformance data set), for poking at by hand or with other tools, until Ctrl-C.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { checkApiNames, checkServes, implementation, implNames, missing, parseCli } from '@fairbench/harness/cli/usage.ts';

await runMain('serve', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
  if (!values.impl) throw missing('IMPL', await implNames(), 'make serve IMPL=<name> API=<api>');
  const impl = await implementation(values.impl);
  if (!values.api) throw missing('API', impl.manifest.apis, `make serve IMPL=${impl.manifest.name} API=${impl.manifest.apis[0] ?? ''}`);
  await checkApiNames([values.api]);
  checkServes(impl, values.api);
  const { conformanceApi } = await import('../apis.ts');
  const { launchTarget } = await import('../launch-target.ts');
  const { startDatabases } = await import('../run.ts');
  const api = await conformanceApi(values.api);
  const databases = await startDatabases(api.manifest.databases);
  const { running } = await launchTarget({ impl, api }, databases);
  for (const db of databases.values()) console.log(`${db.kind}: ${db.url}`);
  console.log(`${impl.manifest.name} serves ${api.name} at ${running.baseUrl} (Ctrl-C stops everything)`);
  await running.process.exited;
  console.log(`${impl.manifest.name} exited: see results/logs/${impl.manifest.name}/server.log`);
  return false;
});
