// A conformance verdict's suite hash counts its own implementation's planted defects and no
// other's: adding a newcomer's defect files leaves every other verdict current.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suiteFingerprints } from '../src/run.ts';

test("the suite hash of a verdict leaves out other implementations' defects", async () => {
  const [express, hapi, newcomer, other] = await Promise.all(['express', 'hapi', 'newcomer', 'other'].map((impl) => suiteFingerprints(impl)));
  // Neither has a defect file: the same suite.
  assert.equal(newcomer!.suiteHash, other!.suiteHash);
  // Each has its own defect files (apis/*/conformance/mutants/<impl>.yaml), which only its hash counts.
  assert.notEqual(express!.suiteHash, newcomer!.suiteHash);
  assert.notEqual(express!.suiteHash, hapi!.suiteHash);
  assert.equal(express!.specHash, hapi!.specHash);
});
