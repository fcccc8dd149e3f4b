// A pact verdict's contract hash counts its own implementation's planted defects and no other's;
// the consumer test's stamp (no implementation) counts none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pactApis } from '../src/apis.ts';
import { contractHash } from '../src/verdict.ts';

test("the contract hash of a verdict leaves out other implementations' defects", async () => {
  const [forum] = await pactApis(['forum']);
  assert.ok(forum, 'forum has a pact');
  // apis/forum/pact/mutants/ holds express.yaml and hapi.yaml, and no file of a newcomer's.
  const [express, hapi, newcomer, other, stamp] = await Promise.all([
    contractHash(forum, 'express'),
    contractHash(forum, 'hapi'),
    contractHash(forum, 'newcomer'),
    contractHash(forum, 'other'),
    contractHash(forum),
  ]);
  assert.equal(newcomer, other);
  assert.equal(stamp, newcomer);
  assert.notEqual(express, newcomer);
  assert.notEqual(express, hapi);
});
