// k6.js (the users benchmark's script) measured for real against a small in-memory users server: exactly N
// arrivals spread over the ramp, each flow once; every request type counted apart; the
// warm-up left out; Server-Timing read as the server's time; a failed step skips the rest
// of its flow. (The implementations themselves are checked by the conformance suite.)
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { startK6 } from '@fairbench/bench/load/k6.ts';
import { loadUsersScenario, stepsEnv } from '../bench/scenario.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-users-k6-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

const SERVER_MS = 1.25;
const body = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
};

test('users.js: N flows over the ramp, per request type, Server-Timing, a failed register skips its flow', async () => {
  const users = new Map<string, { id: string; name: string; surname: string; username: string; role: string }>();
  const registered: { username: string; at: number }[] = [];
  for (let i = 0; i < 120; i++)
    users.set(`seed${i}`, { id: i.toString(16).padStart(24, '0'), name: 'S', surname: 'S', username: `seed${i}`, role: i === 0 ? 'admin' : 'user' });
  let next = 1000;
  const server = createServer(async (req, res) => {
    const send = (status: number, data?: unknown) => {
      res
        .writeHead(status, { 'content-type': 'application/json', 'server-timing': `app;dur=${SERVER_MS.toFixed(3)}` })
        .end(data === undefined ? undefined : JSON.stringify(data));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    const byId = /^\/users\/([0-9a-f]{24})$/.exec(url.pathname)?.[1];
    const find = (id: string) => [...users.values()].find((u) => u.id === id);
    const token = (req.headers.authorization ?? '').replace('Bearer ', '');
    if (req.method === 'POST' && url.pathname === '/auth/login') {
      const b = await body(req);
      return users.has(String(b['username'])) ? send(200, { token: `t-${b['username']}`, tokenType: 'Bearer', expiresIn: 3600 }) : send(401);
    }
    if (req.method === 'POST' && url.pathname === '/users') {
      const b = await body(req);
      const username = String(b['username']);
      registered.push({ username, at: Date.now() });
      // The fourth measured flow's register fails: its seven later steps must be skipped.
      if (username.endsWith('m3')) return send(409);
      const u = { id: (next++).toString(16).padStart(24, '0'), name: String(b['name']), surname: String(b['surname']), username, role: 'user' };
      users.set(username, u);
      return send(201, u);
    }
    if (req.method === 'GET' && (url.pathname === '/users' || url.pathname === '/admin/users')) {
      if (url.pathname === '/admin/users' && token !== 't-seed0') return send(403);
      return send(200, [...users.values()].slice(0, Number(url.searchParams.get('limit'))));
    }
    if (req.method === 'GET' && url.pathname === '/me') return send(200, users.get(token.slice(2)));
    if (byId && req.method === 'GET') return find(byId) ? send(200, find(byId)) : send(404);
    if (byId && req.method === 'PUT') {
      const u = find(byId);
      if (!u) return send(404);
      Object.assign(u, await body(req));
      return send(200, u);
    }
    if (byId && req.method === 'DELETE') {
      const u = find(byId);
      if (!u) return send(404);
      users.delete(u.username);
      return send(204);
    }
    send(404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { scenario } = await loadUsersScenario(new URL('../bench/scenario.yaml', import.meta.url).pathname);
  const N = 10;
  try {
    const env = {
      BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      STEPS: stepsEnv(scenario.flows['all']!.steps),
      USERS: N,
      SECONDS: 2,
      DRAIN: 10,
      WARMUP: 1,
      RUN: 'test',
      ADMIN_USERNAME: 'seed0',
      ADMIN_PASSWORD: 'x',
    };
    const m = await startK6('users-test', env, { script: new URL('../bench/k6.js', import.meta.url).pathname, cores: null, workDir: dir, limitSeconds: 60 })
      .done;
    const measured = registered.filter((r) => /m\d+$/.test(r.username));
    assert.equal(measured.length, N, 'exactly N arrivals');
    assert.ok(registered.length > N, 'the warm-up ran flows too');
    const spread = (measured.at(-1)!.at - measured[0]!.at) / 1000;
    assert.ok(spread > 1.5 && spread < 2.2, `arrivals spread over ${spread} s of the 2 s ramp (9 × 0.2 s between the first and last)`);
    const types = m.requestTypes ?? {};
    assert.equal(Object.keys(types).length, 8);
    assert.equal(types['registerUser']?.requests, N);
    assert.equal(types['registerUser']?.errors, 1);
    for (const t of ['listUsers', 'getUser', 'login', 'getMe', 'adminListUsers', 'updateUser', 'deleteUser']) {
      assert.equal(types[t]?.requests, N - 1, `${t}: the failed flow sent none`);
      assert.equal(types[t]?.errors, 0, `${t}: no errors`);
      assert.equal(types[t]?.serverMs?.mean, SERVER_MS);
    }
    assert.deepEqual(m.errors, { '409': 1 });
    assert.equal(m.requests, N + 7 * (N - 1));
    assert.match(m.notes.join(' '), /7 requests not sent/);
    assert.deepEqual(
      [...users.keys()].filter((u) => /m\d+$/.test(u)),
      [],
      'every measured flow deleted its user',
    );
  } finally {
    server.close();
  }
});
