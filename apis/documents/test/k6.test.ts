// k6.js (the documents benchmark's script) measured for real against a small in-memory documents server:
// the paper's sequential protocol (COUNT creates, then reads, replaces, deletes of those
// documents, in that order, by one client, after the warm-up) and the closed variant,
// per request type with Server-Timing. Needs dataset/payloads.js (the documents
// seed): skipped, saying so, where it is not there yet.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { startK6 } from '@fairbench/bench/load/k6.ts';

const PAYLOADS = join(repoRoot, 'apis', 'documents', 'dataset', 'payloads.js');
const skip = existsSync(PAYLOADS) ? false : 'apis/documents/dataset/payloads.js (the documents seed) is not in this tree';
const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-documents-k6-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

async function withServer(f: (baseUrl: string, log: string[]) => Promise<void>): Promise<void> {
  const docs = new Map<string, unknown>();
  const log: string[] = [];
  let next = 1;
  const server = createServer(async (req, res) => {
    let text = '';
    try {
      for await (const chunk of req) text += chunk;
    } catch {
      // k6 closed the connection mid-body when its run ended: no request, nothing to log.
      return;
    }
    const send = (status: number, data?: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', 'server-timing': 'app;dur=0.500', ...headers })
        .end(data === undefined ? undefined : JSON.stringify(data));
    const id = /^\/documents\/([0-9a-f]{24})$/.exec(req.url ?? '')?.[1];
    log.push(req.method ?? '');
    if (req.method === 'POST' && req.url === '/documents') {
      const d = { id: (next++).toString(16).padStart(24, '0'), ...(JSON.parse(text) as object) };
      docs.set(d.id, d);
      // The script follows the Location of the 201.
      return send(201, d, { location: `/documents/${d.id}` });
    }
    if (!id || !docs.has(id)) return send(404);
    if (req.method === 'GET') return send(200, docs.get(id));
    if (req.method === 'PUT') {
      docs.set(id, { id, ...(JSON.parse(text) as object) });
      return send(200, docs.get(id));
    }
    if (req.method === 'DELETE') {
      docs.delete(id);
      return send(204);
    }
    send(404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await f(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, log);
  } finally {
    server.close();
  }
}

const script = new URL('../bench/k6.js', import.meta.url).pathname;

test("documents.js sequential: COUNT of each operation in the paper's order, the warm-up left out", { skip }, async () => {
  await withServer(async (BASE_URL, log) => {
    const m = await startK6(
      'documents-test',
      { BASE_URL, KIND: 'record', MODEL: 'sequential', COUNT: 7, WARMUP: 1, SEED: 1 },
      { script, cores: null, workDir: dir, limitSeconds: 60 },
    ).done;
    const types = m.requestTypes ?? {};
    for (const t of ['createDocument', 'getDocument', 'replaceDocument', 'deleteDocument']) {
      assert.equal(types[t]?.requests, 7, t);
      assert.equal(types[t]?.errors, 0, t);
      assert.equal(types[t]?.serverMs?.mean, 0.5, t);
    }
    assert.deepEqual(m.errors, {});
    const measured = log.slice(-28).join(' ');
    assert.equal(measured, ['POST', 'GET', 'PUT', 'DELETE'].map((x) => Array(7).fill(x).join(' ')).join(' '));
    assert.ok(log.length > 28, 'the warm-up sent requests too');
  });
});

test('documents.js closed: clients looping create → read → replace → delete, counted in the window', { skip }, async () => {
  await withServer(async (BASE_URL) => {
    const m = await startK6(
      'documents-test',
      { BASE_URL, KIND: 'text', MODEL: 'closed', VUS: 4, WARMUP: 1, DURATION: 2, SEED: 1 },
      { script, cores: null, workDir: dir, limitSeconds: 60 },
    ).done;
    const n = (t: string) => m.requestTypes?.[t]?.requests ?? 0;
    assert.ok(n('createDocument') > 20, `${n('createDocument')} creates`);
    // Each iteration sends the four in turn: at the window's edges at most 4 lives are cut.
    for (const t of ['getDocument', 'replaceDocument', 'deleteDocument']) assert.ok(Math.abs(n(t) - n('createDocument')) <= 4, `${t}: ${n(t)}`);
    assert.deepEqual(m.errors, {});
    assert.ok(Math.abs(m.durationSeconds - 2) < 0.5);
  });
});
