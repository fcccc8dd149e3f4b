// scratch (not committed): MariaDB + conformance seed, prints the URL, waits.
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import { generateTpcc } from './dataset/generate.ts';
import { loadTpcc } from './dataset/load.ts';
import { CONFORMANCE_SCALE } from './dataset/model.ts';
import { writeFileSync } from 'node:fs';
const server = await localProvider.start('mysql', { database: 'tpcc' });
const r = await loadTpcc(server.url, generateTpcc(CONFORMANCE_SCALE));
console.log(server.url, r.milliseconds);
writeFileSync('/tmp/tpcc/db-url', server.url);
process.on('SIGTERM', async () => { await server.stop(); process.exit(0); });
setInterval(() => {}, 1000);
