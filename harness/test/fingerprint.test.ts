// A verdict's hashes depend on what it tested: another implementation's planted defects
// (apis/<api>/<suite>/mutants/<other>.yaml) leave them unchanged, its own do not.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { onlyDefectsOf, treeHash } from '../src/fingerprint.ts';
import { repoRoot } from '../src/paths.ts';

test('onlyDefectsOf keeps every file but the defects of other implementations', () => {
  const keep = onlyDefectsOf(['express']);
  for (const suite of ['conformance', 'pact', 'resilience']) {
    assert.equal(keep(`apis/forum/${suite}/mutants/express.yaml`), true, suite);
    assert.equal(keep(`apis/forum/${suite}/mutants/hapi.yaml`), false, suite);
  }
  assert.equal(keep('apis/forum/conformance/cases/bad-input.yaml'), true);
  assert.equal(keep('apis/forum/pact/index.ts'), true);
  assert.equal(keep('conformance/src/mutants.ts'), true);
  assert.equal(keep('conformance/schemas/mutants.schema.json'), true);
  // A runtime variant's defects are its implementation's; no implementation: no defect counts.
  assert.equal(onlyDefectsOf(['express@bun'])('apis/users/conformance/mutants/express.yaml'), true);
  assert.equal(onlyDefectsOf([])('apis/users/conformance/mutants/express.yaml'), false);
  assert.equal(onlyDefectsOf([])('apis/users/conformance/cases/flows.yaml'), true);
});

test("adding one implementation's defect file changes its hash of the suite and no other's", async () => {
  const folder = 'harness/test/fixtures/apis/toy';
  const dir = join(repoRoot, folder, 'conformance', 'mutants');
  const hashes = async () => ({
    toy: await treeHash([folder], onlyDefectsOf(['toy'])),
    newcomer: await treeHash([folder], onlyDefectsOf(['newcomer'])),
    none: await treeHash([folder], onlyDefectsOf([])),
  });
  const before = await hashes();
  assert.equal(before.toy, before.newcomer, 'no defect file yet: the same files');
  await mkdir(dir, { recursive: true });
  try {
    // Untracked but not ignored: treeHash counts it, as it counts uncommitted edits.
    await writeFile(join(dir, 'newcomer.yaml'), 'implementation: newcomer\nmutants: []\n');
    const after = await hashes();
    assert.equal(after.toy, before.toy, "the newcomer's defects leave toy's hash as it was");
    assert.equal(after.none, before.none);
    assert.notEqual(after.newcomer, before.newcomer, "the newcomer's own hash changes");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
