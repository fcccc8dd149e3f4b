// make lint's path check: every repository path named in a doc, a code comment, a JSON schema's
// description or a YAML file must exist (the rules: harness/src/doc-paths.ts, docs/testing.md).
// Prints file:line and the path of each that does not, and exits 1; `--root <dir>` checks
// another checkout (the tests use it).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { checkPaths } from '../doc-paths.ts';
import { repoRoot } from '../paths.ts';

const at = process.argv.indexOf('--root');
const root = at >= 0 && process.argv[at + 1] !== undefined ? path.resolve(process.argv[at + 1] ?? '') : repoRoot;
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter((f) => f !== '');
const findings = checkPaths(root, files);
for (const f of findings) console.log(`${f.file}:${f.line}: ${f.path} (${f.reason})`);
if (findings.length > 0) {
  console.log(`paths: ${findings.length} stale path(s) named in ${new Set(findings.map((f) => f.file)).size} file(s)`);
  process.exit(1);
}
console.log(`paths: ok (${files.length} tracked files read)`);
