// The parts of a multi-host run that need no lab: execution segments, the command lines
// that reach a host, the machine probe's parsing and comparison, and the topology file's
// refusals (bench/test/hosts/ runs the benchmark across real network namespaces).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { onHost, type Host } from '@fairbench/harness/hosts/host.ts';
import { UsageError } from '../../src/load/failure.ts';
import { executionSegments } from '../../src/load/k6-instances.ts';
import { differences, parseDescription } from '../../src/execute/topology/machine.ts';
import { loadTopology, placementOf } from '../../src/execute/topology/topology.ts';

describe('execution segments', () => {
  test('n instances split [0, 1] into n equal segments of one sequence', () => {
    assert.deepEqual(executionSegments(1), { segments: ['0:1'], sequence: '0,1' });
    assert.deepEqual(executionSegments(2), { segments: ['0:1/2', '1/2:1'], sequence: '0,1/2,1' });
    assert.deepEqual(executionSegments(3), { segments: ['0:1/3', '1/3:2/3', '2/3:1'], sequence: '0,1/3,2/3,1' });
    assert.throws(() => executionSegments(0));
  });
});

describe('onHost: the command line that runs a process on a host', () => {
  const base = { name: 'h', address: '10.0.0.2' } as const;
  test('here, pinned with taskset', () => {
    assert.deepEqual(onHost({ ...base, via: 'local', cores: [1] }, 'k6', ['run', 'x.js']), ['taskset', ['-c', '1', 'k6', 'run', 'x.js']]);
    assert.deepEqual(onHost({ ...base, via: 'local', cores: null }, 'k6', ['run']), ['k6', ['run']]);
  });
  test('in a network namespace: ip netns exec, which keeps the pid', () => {
    assert.deepEqual(onHost({ ...base, via: 'netns', netns: 'lab-db', cores: [0] }, 'mariadbd', ['--port=1']), [
      'ip',
      ['netns', 'exec', 'lab-db', 'taskset', '-c', '0', 'mariadbd', '--port=1'],
    ]);
  });
  test('over SSH: key from the environment, known hosts only, the environment and the directory on the remote line, quoted', () => {
    const host: Host = { ...base, via: 'ssh', ssh: { user: 'bench', port: 2222, identityFileEnv: 'TEST_LAB_KEY' }, cores: [2, 3] };
    process.env['TEST_LAB_KEY'] = '/keys/lab';
    try {
      const [command, args] = onHost(host, 'sh', ['-c', 'exec node server.js'], { env: { DB_URL: "mysql://root:p'w@10.0.0.1/x" }, cwd: '/srv/fair bench' });
      assert.equal(command, 'ssh');
      assert.deepEqual(args.slice(0, -2), ['-tt', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes', '-i', '/keys/lab', '-p', '2222']);
      assert.equal(args.at(-2), 'bench@10.0.0.2');
      assert.equal(args.at(-1), `cd '/srv/fair bench' && exec env DB_URL='mysql://root:p'\\''w@10.0.0.1/x' taskset -c 2,3 sh -c 'exec node server.js'`);
    } finally {
      delete process.env['TEST_LAB_KEY'];
    }
  });
});

describe('the machine probe', () => {
  const probed = parseDescription('box\n2\n AMD EPYC\n24683656\n6.1.0-18-amd64\n127.0.0.1 10.9.8.3 \n');
  const host: Host = { name: 'gen-a', address: '10.9.8.3', via: 'netns', netns: 'x', cores: [1] };
  test('reads what the shell line printed', () => {
    assert.deepEqual(probed, {
      hostname: 'box',
      cpuModel: 'AMD EPYC',
      cores: 2,
      memoryBytes: 24683656 * 1024,
      kernel: '6.1.0-18-amd64',
      addresses: ['127.0.0.1', '10.9.8.3'],
    });
  });
  test('a host that is what the file says has no differences (memory within 1%)', () => {
    assert.deepEqual(differences(host, { cores: 2, cpuModel: 'AMD EPYC', memoryBytes: Math.round(24683656 * 1024 * 1.005) }, probed), []);
  });
  test('every difference is named: the address, the fields, cores it does not have', () => {
    const d = differences({ ...host, address: '10.9.8.4', cores: [3] }, { cores: 4, kernel: '6.12' }, probed);
    assert.equal(d.length, 4, d.join('\n'));
    assert.match(d[0]!, /address 10\.9\.8\.4 is not one of the host's \(127\.0\.0\.1, 10\.9\.8\.3\)/);
    assert.match(d[1]!, /cores is 2, the topology says 4/);
    assert.match(d[2]!, /kernel is "6\.1\.0-18-amd64", the topology says "6\.12"/);
    assert.match(d[3]!, /cores 3 asked, the machine has 2/);
  });
});

describe('the topology file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(os.tmpdir(), 'fairbench-topology-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const roles = 'roles: { database: db, implementation: app, generators: [gen] }\n';
  test('a file its schema refuses is a usage error naming the place', async () => {
    const f = await file(
      'a.yaml',
      `controller: { address: 10.0.0.9 }\nhosts:\n  db: { address: 10.0.0.1, via: netns }\n  app: { address: 10.0.0.2, via: netns, netns: a }\n  gen: { address: 10.0.0.3, via: ftp }\n${roles}`,
    );
    await assert.rejects(
      loadTopology(f),
      (e: unknown) => e instanceof UsageError && /hosts\/db must have required property 'netns'/.test(e.message) && /hosts\/gen\/via/.test(e.message),
    );
  });
  test('roles naming a host the file does not have', async () => {
    const f = await file(
      'b.yaml',
      `controller: { address: 10.0.0.9 }\nhosts:\n  db: { address: 10.0.0.1, via: netns, netns: a }\n  app: { address: 10.0.0.2, via: netns, netns: b }\n${roles}`,
    );
    await assert.rejects(loadTopology(f), (e: unknown) => e instanceof UsageError && /host 'gen', which is not under hosts \(db, app\)/.test(e.message));
  });
  test('hosts that cannot be reached refuse the run, each named', async () => {
    const f = await file(
      'c.yaml',
      `controller: { address: 10.0.0.9 }\nhosts:\n  db: { address: 10.0.0.1, via: netns, netns: fairbench-no-such-ns-1 }\n  app: { address: 10.0.0.2, via: netns, netns: fairbench-no-such-ns-2 }\n  gen: { address: 10.0.0.3, via: netns, netns: fairbench-no-such-ns-3 }\n${roles}`,
    );
    await assert.rejects(
      loadTopology(f),
      (e: unknown) =>
        e instanceof UsageError &&
        /refused/.test(e.message) &&
        ['db', 'app', 'gen'].every((h) => new RegExp(`\\n  ${h} \\(10\\.0\\.0\\.\\d via netns\\): cannot be reached`).test(e.message)),
    );
  });
  test("the placement recorded is each party's host's cores", () => {
    const h = (name: string, cores: number[] | null): Host => ({ name, address: '10.0.0.1', via: 'netns', netns: name, cores });
    assert.deepEqual(placementOf({ database: h('db', [0]), implementation: h('app', [0]), generators: [h('a', [1]), h('b', [1, 2])] }), {
      database: [0],
      implementation: [0],
      generator: [1, 2],
    });
    assert.deepEqual(placementOf({ database: h('db', null), implementation: h('app', null), generators: [h('a', null)] }), {
      database: null,
      implementation: null,
      generator: null,
    });
  });
});
