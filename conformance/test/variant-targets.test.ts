// Which runtime variants conformance (and make pact, which selects the same way) runs, and
// where: a variant named in IMPL is a target of its own; the containers runtime refuses one it
// cannot run when RUNTIME=containers was asked for, and runs it as a local process when the
// command chose containers itself. Nothing is started: selection only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectTargets } from '../src/run.ts';

async function quietly<T>(f: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => {};
  try {
    return await f();
  } finally {
    console.log = log;
  }
}

test('a variant named in IMPL is its own target; without IMPL only the default runtimes run', async () => {
  const local = await quietly(() => selectTargets({ impls: ['express@bun', 'express'], apis: ['forum'] }, 'local'));
  assert.deepEqual(
    local.targets.map((t) => [t.impl.manifest.name, t.impl.manifest.runtime.name, t.runtime]),
    [
      ['express@bun', 'bun', undefined],
      ['express', 'node', undefined],
    ],
  );
  const same = await quietly(() => selectTargets({ impls: ['express', 'express@node'], apis: ['forum'] }, 'local'));
  assert.equal(same.targets.length, 1, 'the default named twice is one target');
  const all = await quietly(() => selectTargets({ apis: ['forum'] }, 'local'));
  assert.ok(
    all.targets.every((t) => t.impl.variant.isDefault),
    'no variant unless named',
  );
});

test('in containers: refused when asked for, a loud local process when the command chose', async () => {
  const saved = process.env['FAIRBENCH_RUNTIME'];
  try {
    process.env['FAIRBENCH_RUNTIME'] = 'containers';
    const asked = await quietly(() => selectTargets({ impls: ['express@bun'], apis: ['forum'] }, 'containers'));
    assert.deepEqual(asked.targets, []);
    assert.match(asked.skips[0]?.reason ?? '', /does not run the bun variant of express: impl\/express\/Dockerfile/);
    delete process.env['FAIRBENCH_RUNTIME'];
    const chosen = await quietly(() => selectTargets({ impls: ['express@bun'], apis: ['forum'] }, 'containers'));
    assert.deepEqual(
      chosen.targets.map((t) => [t.impl.manifest.name, t.runtime]),
      [['express@bun', 'local']],
    );
  } finally {
    if (saved === undefined) delete process.env['FAIRBENCH_RUNTIME'];
    else process.env['FAIRBENCH_RUNTIME'] = saved;
  }
});
