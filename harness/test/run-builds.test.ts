// make test's shared builds (impl/run-builds.ts): a folder's build is skipped only for the same
// command on the same sources in the same run, and never outside make test or outside impl/.
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../src/paths.ts';
import { runBuild } from '../src/impl/run-builds.ts';
import { TEST_RUN_ENV } from '../src/tally.ts';

const express = path.join(repoRoot, 'impl', 'express');
const hapi = path.join(repoRoot, 'impl', 'hapi');

test('a build recorded in the run is done for the same folder and command, not for another', async () => {
  const env = { [TEST_RUN_ENV]: await mkdtemp(path.join(os.tmpdir(), 'run-builds-')) };
  const first = await runBuild(express, 'npm ci --omit=dev', env);
  assert.equal(first?.done, false);
  await first!.record();
  assert.equal((await runBuild(express, 'npm ci --omit=dev', env))?.done, true);
  assert.equal((await runBuild(hapi, 'npm ci --omit=dev', env))?.done, false, "another folder's build is its own");
  // Another command in the folder (a variant's) replaces what the folder holds: the first is no longer done.
  await (await runBuild(express, 'bun install', env))!.record();
  assert.equal((await runBuild(express, 'npm ci --omit=dev', env))?.done, false);
});

test('another make test run builds again', async () => {
  const one = { [TEST_RUN_ENV]: await mkdtemp(path.join(os.tmpdir(), 'run-builds-')) };
  await (await runBuild(express, 'npm ci', one))!.record();
  const two = { [TEST_RUN_ENV]: await mkdtemp(path.join(os.tmpdir(), 'run-builds-')) };
  assert.equal((await runBuild(express, 'npm ci', two))?.done, false);
});

test('outside make test, and for a copy outside impl/ (a planted defect), nothing is shared', async () => {
  assert.equal(await runBuild(express, 'npm ci', {}), undefined);
  const env = { [TEST_RUN_ENV]: await mkdtemp(path.join(os.tmpdir(), 'run-builds-')) };
  assert.equal(await runBuild(path.join(os.tmpdir(), 'express-copy'), 'npm ci', env), undefined);
  assert.equal(await runBuild(path.join(repoRoot, 'impl'), 'npm ci', env), undefined);
});
