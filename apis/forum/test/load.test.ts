// Loads the paper's full data set into a real MariaDB twice and checks that the
// two databases hold identical rows (same table checksums) — and how long it took.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import mysql from 'mysql2/promise';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { generateForum } from '../dataset/generate.ts';
import { loadForum } from '../dataset/load.ts';
import { PAPER_SCALE } from '../dataset/model.ts';

let first: DatabaseServer;
let second: DatabaseServer;
before(async () => {
  [first, second] = await Promise.all([localProvider.start('mysql', { database: 'forum_a' }), localProvider.start('mysql', { database: 'forum_b' })]);
});
// Stops both servers, and also the one that did start when the other failed to.
after(() => runCleanup());

async function checksums(url: string): Promise<Record<string, unknown>> {
  const db = await mysql.createConnection(url);
  try {
    const [rows] = await db.query<mysql.RowDataPacket[]>('CHECKSUM TABLE `user`, `category`, `thread`, `comment`');
    return Object.fromEntries(rows.map((r) => [String(r['Table']).split('.')[1], r['Checksum']]));
  } finally {
    await db.end();
  }
}

test('the paper scale loads identically into two servers (200,000 comments)', async (t) => {
  const generated = performance.now();
  const data = generateForum(PAPER_SCALE);
  const generateMs = performance.now() - generated;
  const a = await loadForum(first.url, data);
  const b = await loadForum(second.url, generateForum(PAPER_SCALE));
  assert.deepEqual(a.rows, { user: 1000, category: 1000, thread: 1000, comment: 200_000 });
  assert.deepEqual(await checksums(first.url), await checksums(second.url));
  t.diagnostic(
    `generate ${Math.round(generateMs)} ms; load 200,000 comments (+3,000 other rows, schema, ANALYZE): ${Math.round(a.milliseconds)} ms and ${Math.round(b.milliseconds)} ms`,
  );
});
