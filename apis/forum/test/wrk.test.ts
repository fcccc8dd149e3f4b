// The forum's cross-check load (CROSSCHECK=wrk): for each closed REST case, wrk's Lua
// script sends the request k6.js sends, ids in the data set's range; run for real against
// a small server that records the paths (skipped where wrk is missing).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { runWrk } from '@fairbench/bench/load/wrk.ts';
import { forumWrkLoad } from '../bench/index.ts';
import { expandCases, loadScenario } from '../bench/scenario.ts';

const { scenario } = await loadScenario(new URL('../bench/scenario.yaml', import.meta.url).pathname);
const closed = expandCases(scenario, ['closed']);
const settings = { warmupSeconds: 0, durationSeconds: 1, seed: 7 };
const ids = { comment: 50, user: 5 };
const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-forum-wrk-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

/** The path k6.js requests for a case, as a pattern, and the id range it draws from. */
const EXPECTED: Record<string, [RegExp, number]> = {
  'r1-j0': [/^\/comment\/(\d+)$/, ids.comment],
  'r1-j1': [/^\/user\/(\d+)\/comment$/, ids.user],
  'r50-j0': [/^\/comments\/50$/, 0],
  'r100-j1': [/^\/user\/(\d+)\/comments\/100$/, ids.user],
};

test('closed REST cases get a load with as many connections as VUs; GraphQL and the baseline none', () => {
  for (const c of closed) {
    const load = forumWrkLoad(c, settings, ids);
    if (c.protocol !== 'rest') {
      assert.equal(load, undefined, c.id);
      continue;
    }
    assert.ok(load, c.id);
    assert.equal(load.connections, c.concurrency);
    assert.match(load.script, /request = function\(\)/);
  }
});

test(
  'wrk runs each script: every path the one k6.js asks for, the ids within the range, several of them',
  { skip: existsSync('/usr/bin/wrk') ? false : 'wrk is not installed (make setup)' },
  async () => {
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end('[]');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      for (const [point, [pattern, range]] of Object.entries(EXPECTED)) {
        const c = closed.find((x) => x.protocol === 'rest' && x.concurrency === 100 && x.id.endsWith(point))!;
        const load = forumWrkLoad(c, settings, ids)!;
        const script = join(dir, `${point}.lua`);
        await writeFile(script, load.script);
        seen.length = 0;
        const result = await runWrk(url, { connections: 2, seconds: 1, cores: null, workDir: dir, script });
        assert.ok(result.requests > 10 && result.errors === 0, `${point}: ${result.requests} requests, ${result.errors} errors`);
        assert.ok(seen.length >= 10 && seen.every((p) => pattern.test(p)), `${point}: ${seen.find((p) => !pattern.test(p))}`);
        if (range) {
          const drawn = new Set(seen.map((p) => Number(pattern.exec(p)![1])));
          assert.ok(
            [...drawn].every((id) => id >= 1 && id <= range),
            `${point}: ids ${[...drawn].join(',')}`,
          );
          assert.ok(drawn.size > 1, `${point}: drawn, not fixed`);
        }
      }
    } finally {
      server.close();
    }
  },
);
