// Two revisions of one implementation compared in one run, as a contributor compares a change
// with the code before it (IMPL=express:main,express; harness/src/impl/revisions.ts): a small
// repository whose implementation is the calibration server, a second commit that adds a
// known CPU cost per request, both commits extracted as revisions and measured switched,
// slice by slice (src/calibration/ab.ts). The later revision is declared slower; a revision
// against itself (two processes of it) declares nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { resolveRevision, revisionDir, UnknownRevisionError, type RevisionStore } from '@fairbench/harness/impl/revisions.ts';
import { QUANTITIES, runAb, type AbResult } from '../../src/calibration/ab.ts';
import { choosePlacement } from '../../src/load/placement.ts';
import { declared } from '../../src/stats/index.ts';

const SERVER = join(import.meta.dirname, '..', '..', 'src', 'calibration', 'server.ts');
const COST_LINE = 'const steps = Math.round(iterations * (1 + extraPercent / 100));';
const root = await mkdtemp(join(tmpdir(), 'fairbench-revisions-'));
after(() => rm(root, { recursive: true, force: true }));

/** A repository with impl/calib at two commits: the calibration server, then the same at 1.6 × its steps per request. */
async function twoRevisions(): Promise<{ store: RevisionStore; base: string; costlier: string }> {
  const repo = join(root, 'repo');
  const folder = join(repo, 'impl', 'calib');
  await mkdir(folder, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@localhost', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  const server = await readFile(SERVER, 'utf8');
  assert.ok(server.includes(COST_LINE), 'the calibration server computes its steps per request where the test edits them');
  await writeFile(join(folder, 'impl.yaml'), 'name: calib\n');
  await writeFile(join(folder, 'server.ts'), server);
  git('add', '.');
  git('commit', '-q', '-m', 'the calibration server');
  await writeFile(join(folder, 'server.ts'), server.replace(COST_LINE, COST_LINE.replace('iterations *', 'iterations * 1.6 *')));
  git('commit', '-q', '-am', 'more work per request');
  return { store: { repo, into: join(root, 'revisions') }, base: 'main~1', costlier: 'main' };
}

const { store, base, costlier } = await twoRevisions();

test('a revision is named by its commit and extracted as it was; a revision that names nothing is refused', async () => {
  const [a, b] = [await resolveRevision('calib', base, store), await resolveRevision('calib', costlier, store)];
  assert.notEqual(a, b);
  assert.match(a, /^[0-9a-f]{40}$/);
  const [dirA, dirB] = [await revisionDir('calib', a, store), await revisionDir('calib', b, store)];
  assert.ok((await readFile(join(dirA, 'server.ts'), 'utf8')).includes(COST_LINE));
  assert.ok((await readFile(join(dirB, 'server.ts'), 'utf8')).includes('iterations * 1.6 *'));
  assert.equal(await revisionDir('calib', a, store), dirA, 'extracted once');
  await assert.rejects(resolveRevision('calib', 'no-such-branch', store), UnknownRevisionError);
  await assert.rejects(resolveRevision('other', costlier, store), /has no impl\/other\/impl.yaml/);
});

/** Revision A against revision B, switched over 10 pairs of slices on the cores make bench gives them. */
async function compare(a: string, b: string, key: string): Promise<AbResult> {
  const script = async (revision: string) => join(await revisionDir('calib', await resolveRevision('calib', revision, store), store), 'server.ts');
  const workDir = join(root, key);
  await mkdir(workDir, { recursive: true });
  return runAb({
    iterations: 400_000,
    extraPercent: 0,
    pairs: 10,
    sliceSeconds: 1.5,
    guardSeconds: 0.3,
    warmupSeconds: 2,
    vus: 8,
    placement: choosePlacement(true),
    workDir,
    key,
    scripts: { A: await script(a), B: await script(b) },
  });
}

const shown = (r: AbResult) => QUANTITIES.map((q) => `${q} ${r.paired[q].ratio.toFixed(3)} ${r.paired[q].verdict}`).join(', ');

test('the revision that adds CPU per request is declared slower; a revision against itself declares nothing', async (t) => {
  const ab = await compare(base, costlier, 'revisions-ab');
  t.diagnostic(`A/B: ${shown(ab)}`);
  assert.equal(ab.paired.cpu.verdict, 'slower', shown(ab));
  assert.ok(ab.paired.cpu.ratio > 1.15, `CPU per request ${ab.paired.cpu.ratio.toFixed(3)} × (the burn is most of it)`);
  // A revision against itself: by design a false declaration in at most 5% of runs, so one
  // more run is allowed; a rule that is not calibrated fails both with high probability.
  for (const attempt of [1, 2]) {
    const aa = await compare(base, base, `revisions-aa-${attempt}`);
    t.diagnostic(`A/A #${attempt}: ${shown(aa)}`);
    if (!QUANTITIES.some((q) => declared(aa.paired[q].verdict))) return;
  }
  assert.fail('the same revision against itself was declared different twice');
});
