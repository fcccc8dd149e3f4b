// The path check of make lint (harness/src/doc-paths.ts): a stale path fails, good paths pass,
// and what is not a repository path (case ids, URLs, outputs) is never reported.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { checkPaths, commentsOf, tokensOf } from '../../src/doc-paths.ts';

const cli = path.join(import.meta.dirname, '../../src/cli/check-paths.ts');

/** A small git repository with the given files (path → text), all tracked. */
async function repo(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'doc-paths-'));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-A'], { cwd: root });
  return root;
}

const tree = {
  'bench/package.json': '{}\n',
  'bench/src/plan/options.ts': 'export const x = 1;\n',
  'bench/src/record/copies.ts': 'export const y = 2;\n',
  'bench/docs/k6.md': '# The k6 scripts\n\n## What k6 checks\n',
  'apis/forum/bench/k6.js': '// forum\n',
  'apis/users/bench/k6.js': '// users\n',
  'impl/express/src/data/forum.js': '// forum\n',
};

function run(root: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [cli, '--root', root], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

test('a file naming only paths that exist passes: relative to its workspace, patterns, links and anchors', async () => {
  const root = await repo({
    ...tree,
    'bench/README.md': [
      '# bench',
      'The options: `src/plan/options.ts`; copies in src/record/copies.ts, each `apis/<api>/bench/k6.js` and `apis/*/bench/k6.js`.',
      'See [the checks](docs/k6.md#what-k6-checks), `bench/docs/k6.md` and the folder `src/plan/`.',
      'Not paths: rest/closed/c100-r1-j0, https://example.com/a/b.js, /proc/self/stat, req/s, and/or.',
      'Outputs: results/bench/<api>/<impl>/<runId>.json, .cache/bin/k6.',
      '',
    ].join('\n'),
    'bench/src/run.ts': "// the plan: src/plan/options.ts (bench/src/record/copies.ts)\nconst glob = 'apis/*/test/*.test.ts'; /* apis/forum/bench/k6.js */\n",
    'bench/results.schema.json': '{ "description": "see bench/src/plan/options.ts" }\n',
    'apis/forum/api.yaml': '# the script: bench/k6.js\nscript: bench/k6.js\n',
    // A mutant's file is its implementation's; a path in another repository is written <repo>:<path>.
    'apis/forum/conformance/mutants/express.yaml': 'file: src/data/forum.js # as k6:metrics/sink.go does\n',
  });
  const r = run(root);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /paths: ok/);
});

test('a planted stale path fails with file:line and the path, in a doc, a comment, a schema and YAML', async () => {
  const root = await repo({
    ...tree,
    'bench/README.md': '# bench\n\nThe warm-up: `src/execute/warm-up.ts`.\n',
    'bench/src/run.ts': 'const a = 1;\n// copies: src/plan/copies.ts\n',
    'bench/results.schema.json': '{\n  "description": "the options (bench/docs/options-old.md)"\n}\n',
    'apis/forum/api.yaml': '# the stress script: bench/k6/stress.js\n',
    'docs/x.md': 'A link to [a moved section](../bench/docs/k6.md#the-result) and [a page](gone.md).\n',
  });
  const r = run(root);
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /bench\/README\.md:3: src\/execute\/warm-up\.ts \(does not exist\)/);
  assert.match(r.out, /bench\/src\/run\.ts:2: src\/plan\/copies\.ts/);
  assert.match(r.out, /bench\/results\.schema\.json:2: bench\/docs\/options-old\.md/);
  assert.match(r.out, /apis\/forum\/api\.yaml:1: bench\/k6\/stress\.js/);
  assert.match(r.out, /docs\/x\.md:1: \.\.\/bench\/docs\/k6\.md#the-result \(names no heading/);
  assert.match(r.out, /docs\/x\.md:1: gone\.md/);
  assert.match(r.out, /paths: 6 stale path\(s\) named in 5 file\(s\)/);
});

test('a pattern must match something', async () => {
  const root = await repo({ ...tree, 'docs/y.md': 'Each `apis/<api>/bench/claims.yaml`.\n' });
  const findings = checkPaths(root, [...Object.keys(tree), 'docs/y.md']);
  assert.deepEqual(
    findings.map((f) => [f.file, f.line, f.path, f.reason]),
    [['docs/y.md', 1, 'apis/<api>/bench/claims.yaml', 'matches no file']],
  );
});

test('comments are read, strings and regular expressions are not', () => {
  const src = "const s = '// not/a/comment.ts';\nconst r = /a\\/b.ts/; // real/one.ts\n/* block\n   two/lines.ts */\n";
  assert.deepEqual(commentsOf(src), [
    { line: 2, text: ' real/one.ts' },
    { line: 3, text: ' block\n   two/lines.ts ' },
  ]);
  assert.deepEqual(
    tokensOf('x apis/<api>/bench/k6.js, fairbench/<api>/<case id>/summary.json', 7).map((c) => c.token),
    ['apis/<api>/bench/k6.js'],
  );
});
