// The path check (make lint): every repository path that a doc, a code comment, a JSON
// schema's description or a YAML file names must exist. docs/testing.md, "The path check",
// states the rules; in short:
//
// - What is read: Markdown whole; the comments of .ts/.js/.cjs/.mjs; the `description`
//   and `$comment` strings of .json files; YAML whole (comments and values).
// - What is a path: a token of two or more `/`-separated segments that ends in a file
//   extension (`bench/src/run.ts`, `apis/<api>/bench/k6.js`) or in `/` (`src/k6-operator/`).
//   Case ids (`rest/closed/c100-r1-j0`), URLs (`http://…`, anything after `/` or `:`),
//   absolute paths (`/proc`) and `word/word` prose are not paths.
// - Outputs are never checked: a path under results/, .cache/ or node_modules/.
// - How a path resolves: `./x` and `../x` from the file's own folder only; any other path
//   from the file's folder or any folder above it up to the repository's root, so
//   `src/plan/options.ts` inside bench/ is bench/src/plan/options.ts and `bench/k6.js` in
//   apis/forum/README.md is apis/forum/bench/k6.js.
// - Patterns: a segment with `*`, `<placeholder>` or `{a,b}` is a pattern that must match at
//   least one tracked file or folder (`<api>` and `*` stand for one segment, `**` for any).
// - A Markdown link's `#anchor` to a Markdown file must name one of its headings.
// - A line holding `path-check: ignore` is skipped.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface PathFinding {
  readonly file: string;
  readonly line: number;
  readonly path: string;
  readonly reason: string;
}

/** A path-like token and the line it is on (1-based). */
export interface Candidate {
  readonly line: number;
  readonly token: string;
  readonly anchor?: string;
  /** A Markdown link's target: resolved from the file's own folder only, as Markdown does. */
  readonly link?: boolean;
}

const EXTENSIONS = new Set(
  'ts js cjs mjs json yaml yml md lua go mod sum sql sh patch conf cs csproj java py toml txt html css graphql xml gradle properties kt rs rb php ex exs'.split(
    ' ',
  ),
);
const OUTPUT_ROOTS = new Set(['results', '.cache', 'node_modules']);
const IGNORE_MARK = 'path-check: ignore';
// Characters a path token is made of: word characters, and the pattern syntax.
const TOKEN = /[A-Za-z0-9_.@<>*{},-]*[A-Za-z0-9_.<>*{}-]\/[A-Za-z0-9_.@<>*{},/-]*(?:#[A-Za-z0-9_-]+)?/g;

/** The kinds of file the check reads, by name. */
export function fileKind(file: string): 'markdown' | 'code' | 'json' | 'yaml' | undefined {
  if (file.endsWith('.md')) return 'markdown';
  if (/\.(ts|js|cjs|mjs)$/.test(file)) return 'code';
  if (file.endsWith('.json')) return 'json';
  if (/\.ya?ml$/.test(file)) return 'yaml';
  return undefined;
}

/** The path-like tokens of one piece of text whose first line is `firstLine`. */
export function tokensOf(text: string, firstLine = 1): Candidate[] {
  const out: Candidate[] = [];
  const lines = text.split('\n');
  lines.forEach((lineText, i) => {
    if (lineText.includes(IGNORE_MARK)) return;
    for (const m of lineText.matchAll(TOKEN)) {
      const before = lineText[m.index - 1] ?? '';
      // Part of a URL, an absolute path or a longer word: not a repository path.
      if (before === '/' || before === ':' || before === '\\' || /[A-Za-z0-9_@~$]/.test(before)) continue;
      let token = m[0];
      let anchor: string | undefined;
      const hash = token.indexOf('#');
      if (hash >= 0) {
        anchor = token.slice(hash + 1);
        token = token.slice(0, hash);
      }
      token = token.replace(/[.,]+$/, '');
      if (!isPathLike(token)) continue;
      out.push(anchor === undefined ? { line: firstLine + i, token } : { line: firstLine + i, token, anchor });
    }
  });
  return out;
}

function isPathLike(token: string): boolean {
  // A package (`@fairbench/bench/…`) or a path rooted at a placeholder (`<resultsRoot>/…`,
  // a claim's `<TestRun>-<i>/…`) is not a repository path.
  if (token.startsWith('@') || token.startsWith('<')) return false;
  const segments = token.split('/');
  if (segments.length < 2 || segments.some((s, i) => s === '' && i !== segments.length - 1)) return false;
  if (segments.some((s) => s.includes(',') && !/\{[^}]*\}/.test(s))) return false;
  // Placeholders must be whole: `<api>` yes, `<case` (a placeholder with a space) no.
  if ((token.match(/</g) ?? []).length !== (token.match(/>/g) ?? []).length) return false;
  if ((token.match(/\{/g) ?? []).length !== (token.match(/\}/g) ?? []).length) return false;
  // A folder: two named segments at least (`src/stats/`; a lone `html/` or a case id's `database/…` is not checked).
  if (token.endsWith('/')) return segments.length >= 3 && /^[A-Za-z0-9_.]/.test(token) && segments.slice(0, -1).every((s) => /[A-Za-z]/.test(s));
  const last = segments[segments.length - 1] ?? '';
  const ext = /\.([A-Za-z0-9]+)$/.exec(last)?.[1];
  return ext !== undefined && EXTENSIONS.has(ext) && !/^\.[A-Za-z0-9]+$/.test(last) && !last.startsWith('*.');
}

/** The comments of JavaScript or TypeScript source, each with the line it starts on. */
export function commentsOf(source: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let line = 1;
  let i = 0;
  let lastSignificant = '';
  const n = source.length;
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out.push({ line, text: source.slice(i + 2, stop) });
      i = stop;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end;
      const text = source.slice(i + 2, stop);
      out.push({ line, text });
      line += (text.match(/\n/g) ?? []).length;
      i = stop + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      i = skipString(source, i, c, (count) => (line += count));
      lastSignificant = c;
      continue;
    }
    if (c === '/' && (lastSignificant === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastSignificant))) {
      i = skipRegex(source, i);
      lastSignificant = '/';
      continue;
    }
    if (c !== undefined && !/\s/.test(c)) lastSignificant = c;
    i++;
  }
  return out;
}

function skipString(source: string, start: number, quote: string, newlines: (count: number) => void): number {
  let i = start + 1;
  let depth = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '\n') newlines(1);
    if (quote === '`' && c === '$' && source[i + 1] === '{') {
      depth++;
      i += 2;
      continue;
    }
    if (quote === '`' && depth > 0 && c === '}') {
      depth--;
      i++;
      continue;
    }
    if (c === quote && depth === 0) return i + 1;
    if (c === '\n' && quote !== '`') return i;
    i++;
  }
  return i;
}

function skipRegex(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '\n') return i;
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i + 1;
    i++;
  }
  return i;
}

/** The `description` and `$comment` strings of a JSON document, each with its line. */
export function jsonDescriptionsOf(raw: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lines = raw.split('\n');
  lines.forEach((text, i) => {
    const m = /"(?:description|\$comment)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
    if (m?.[1] !== undefined) out.push({ line: i + 1, text: m[1] });
  });
  return out;
}

/** The local targets of a Markdown file's links, `[text](target#anchor)`. */
export function markdownLinksOf(text: string): Candidate[] {
  const out: Candidate[] = [];
  text.split('\n').forEach((lineText, i) => {
    if (lineText.includes(IGNORE_MARK)) return;
    for (const m of lineText.matchAll(/\]\(([^()\s]+)\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      const hash = target.indexOf('#');
      const token = hash >= 0 ? target.slice(0, hash) : target;
      const anchor = hash >= 0 ? target.slice(hash + 1) : undefined;
      out.push(anchor === undefined ? { line: i + 1, token, link: true } : { line: i + 1, token, anchor, link: true });
    }
  });
  return out;
}

/** The candidates of one file's text, by its kind. */
export function candidatesOf(file: string, text: string): Candidate[] {
  switch (fileKind(file)) {
    case 'markdown':
      return [...markdownLinksOf(text), ...tokensOf(text)];
    case 'yaml':
      return tokensOf(text);
    case 'code':
      return commentsOf(text).flatMap((c) => tokensOf(c.text, c.line));
    case 'json':
      return jsonDescriptionsOf(text).flatMap((c) => tokensOf(c.text, c.line));
    default:
      return [];
  }
}

/** The tracked files and every folder that holds one, relative to the root, `/`-separated. */
export class Tree {
  readonly entries: ReadonlySet<string>;
  readonly root: string;
  constructor(root: string, files: readonly string[]) {
    this.root = root;
    const all = new Set<string>();
    for (const f of files) {
      all.add(f);
      const parts = f.split('/');
      for (let k = 1; k < parts.length; k++) all.add(parts.slice(0, k).join('/'));
    }
    this.entries = all;
  }

  exists(rel: string): boolean {
    const clean = rel.replace(/\/$/, '');
    return this.entries.has(clean) || existsSync(path.join(this.root, clean));
  }

  matches(pattern: RegExp): boolean {
    for (const e of this.entries) if (pattern.test(e)) return true;
    return false;
  }

  /** Is `rel` the tail of some tracked path (`src/data/forum.js` of impl/express/src/data/forum.js)? */
  hasTail(rel: string): boolean {
    const clean = rel.replace(/\/$/, '');
    for (const e of this.entries) if (e === clean || e.endsWith(`/${clean}`)) return true;
    return false;
  }
}

const isPattern = (token: string): boolean => /[*<>{}]/.test(token);

function patternRegex(rel: string): RegExp {
  let body = '';
  const segments = rel.replace(/\/$/, '').split('/');
  segments.forEach((segment, k) => {
    if (segment === '**') {
      body += '(?:[^/]+/)*';
      return;
    }
    let out = '';
    for (let i = 0; i < segment.length; i++) {
      const c = segment[i] ?? '';
      if (c === '*') out += '[^/]*';
      else if (c === '<') {
        out += '[^/]+';
        i = segment.indexOf('>', i);
      } else if (c === '{') {
        const end = segment.indexOf('}', i);
        const inner = segment.slice(i + 1, end);
        out += inner.includes(',') ? `(?:${inner.split(',').map(escape).join('|')})` : '[^/]+';
        i = end;
      } else out += escape(c);
    }
    body += out + (k < segments.length - 1 ? '/' : '');
  });
  return new RegExp(`^${body}$`);
}

function escape(s: string): string {
  return s.replace(/[.+?^$()|[\]\\]/g, '\\$&');
}

/** Where a token may resolve, as repository-relative folders ('' = the root), nearest first. */
export function basesFor(file: string, token: string, link = false): string[] {
  const dir = path.posix.dirname(file);
  if (link || token.startsWith('./') || token.startsWith('../')) return [dir === '.' ? '' : dir];
  const bases: string[] = [];
  let d = dir === '.' ? '' : dir;
  for (;;) {
    bases.push(d);
    if (d === '') break;
    const up = path.posix.dirname(d);
    d = up === '.' ? '' : up;
  }
  return bases;
}

function isOutput(rel: string): boolean {
  const segments = rel.split('/');
  return OUTPUT_ROOTS.has(segments[0] ?? '') || segments.includes('node_modules');
}

/** GitHub's anchor of a Markdown heading. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(root: string, rel: string): Set<string> {
  const text = readFileSync(path.join(root, rel), 'utf8');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m || m[1] === undefined) continue;
    const base = slug(m[1]);
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    out.add(k === 0 ? base : `${base}-${k}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (m[1] !== undefined) out.add(m[1]);
  return out;
}

/** Checks one file's candidates against the tree; returns what does not exist. */
export function checkFile(tree: Tree, file: string, text: string): PathFinding[] {
  const findings: PathFinding[] = [];
  const reported = new Set<string>();
  for (const c of candidatesOf(file, text)) {
    if (c.token === '' && c.anchor !== undefined) {
      if (!anchorsOf(tree.root, file).has(c.anchor)) findings.push({ file, line: c.line, path: `#${c.anchor}`, reason: 'names no heading of this page' });
      continue;
    }
    const key = `${c.line}:${c.token}#${c.anchor ?? ''}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const bases = basesFor(file, c.token, c.link === true);
    const resolved = bases.map((b) => path.posix.normalize(b === '' ? c.token : `${b}/${c.token}`)).filter((r) => !r.startsWith('..'));
    if (resolved.some(isOutput) || isOutput(c.token)) continue;
    const pattern = isPattern(c.token);
    let hit = resolved.find((r) => (pattern ? tree.matches(patternRegex(r)) : tree.exists(r)));
    // Not from here: a path relative to another folder (a mutant's `file:` is its
    // implementation's, a guide's `bench/k6.js` any API's) is the tail of a tracked path.
    const relative = !c.link && !c.token.startsWith('./') && !c.token.startsWith('../');
    if (hit === undefined && relative && (pattern ? tree.matches(patternRegex(`**/${c.token}`)) : tree.hasTail(c.token))) hit = c.token;
    if (hit === undefined) {
      findings.push({ file, line: c.line, path: c.token, reason: pattern ? 'matches no file' : 'does not exist' });
      continue;
    }
    if (c.anchor !== undefined && !pattern && hit.endsWith('.md') && !anchorsOf(tree.root, hit).has(c.anchor)) {
      findings.push({ file, line: c.line, path: `${c.token}#${c.anchor}`, reason: 'names no heading of that page' });
    }
  }
  return findings;
}

/** Checks every given file (repository-relative) that the check reads. */
export function checkPaths(root: string, files: readonly string[]): PathFinding[] {
  const tree = new Tree(root, files);
  const findings: PathFinding[] = [];
  for (const file of files) {
    if (fileKind(file) === undefined || isOutput(file)) continue;
    const abs = path.join(root, file);
    if (!existsSync(abs)) continue;
    findings.push(...checkFile(tree, file, readFileSync(abs, 'utf8')));
  }
  return findings;
}
