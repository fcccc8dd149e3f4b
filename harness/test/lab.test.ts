// The network lab (src/hosts/lab.ts): hosts in namespaces of their own that reach each other
// over veth pairs and a bridge, and the harness too; everything removed afterwards, and a lab
// whose harness was killed removed by the next one. Needs root and iproute2: skipped loudly otherwise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createLab, labLeftovers, labUnavailable, removeStaleLabs } from '../src/hosts/lab.ts';
import { onHost } from '../src/hosts/host.ts';
import { stateDir } from '../src/paths.ts';
import { runCommand } from '../src/process.ts';

const unavailable = await labUnavailable();
if (unavailable) console.log(`\x1b[33m!! SKIPPED the network lab tests: ${unavailable}\x1b[0m`);

/** What a lab left, polled briefly (the kernel removes veth peers asynchronously). */
async function leftovers(id: string): Promise<string[]> {
  let left: string[] = [];
  for (let i = 0; i < 20; i++) {
    left = (await labLeftovers()).filter((n) => n.includes(id));
    if (left.length === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return left;
}

describe('the network lab', { skip: unavailable }, () => {
  test('hosts reach each other and the harness by their addresses, not by loopback; nothing is left', async () => {
    const lab = await createLab([{ name: 'srv' }, { name: 'cli', cores: [0] }]);
    try {
      const srv = lab.hosts.get('srv')!;
      const cli = lab.hosts.get('cli')!;
      assert.notEqual(srv.address, cli.address);
      // A TCP server in srv's namespace, bound to its address; a client in cli's namespace, and the harness, reach it.
      const script = `require('net').createServer((s) => s.end('from ' + process.argv[1])).listen(7001, '${srv.address}', () => console.log('up'))`;
      const [command, args] = onHost(srv, process.execPath, ['-e', script, 'srv']);
      const { spawn } = await import('node:child_process');
      const server = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        await new Promise((resolve) => server.stdout.once('data', resolve));
        const read = `require('net').connect(7001, '${srv.address}').on('data', (d) => console.log(String(d)))`;
        const [c, a] = onHost(cli, process.execPath, ['-e', read]);
        assert.equal((await runCommand(c, a)).stdout.trim(), 'from srv');
        assert.equal((await runCommand(process.execPath, ['-e', read])).stdout.trim(), 'from srv', 'the harness reaches the host');
        // Loopback is each namespace's own: nothing listens on 127.0.0.1:7001 in cli's.
        const loop = `require('net').connect(7001, '127.0.0.1').on('error', (e) => console.log(e.code))`;
        const [lc, la] = onHost(cli, process.execPath, ['-e', loop]);
        assert.equal((await runCommand(lc, la)).stdout.trim(), 'ECONNREFUSED');
      } finally {
        server.kill();
      }
    } finally {
      await lab.remove();
    }
    assert.deepEqual(await leftovers(lab.id), []);
  });

  test('a lab whose harness is gone is removed by the next harness; a kept one is not', async () => {
    const stale = await createLab([{ name: 'a' }], { keep: true });
    const kept = await createLab([{ name: 'b' }], { keep: true });
    try {
      // stale: as if made by a harness that was killed (not kept, its owner not running).
      const file = path.join(stateDir, 'labs', `${stale.id}.json`);
      const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify({ ...record, keep: false, owner: '999999999-1' }));
      const removed = await removeStaleLabs();
      assert.ok(removed.some((n) => n.includes(stale.id)) && !removed.some((n) => n.includes(kept.id)), removed.join(', '));
      assert.deepEqual(await leftovers(stale.id), []);
      assert.ok(
        (await labLeftovers()).some((n) => n.includes(kept.id)),
        'the kept lab stays',
      );
    } finally {
      await kept.remove();
      await stale.remove();
    }
    assert.deepEqual(await leftovers(kept.id), []);
  });
});
