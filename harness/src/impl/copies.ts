// The code the implementations copy from each other (harness/impl-copies.yaml). Each
// implementation stands alone, so what they all need alike (a config reader, the problem
// types, database time-outs) is copied, not shared; this finds where copies meant to agree
// have drifted apart. A group agrees byte for byte, or only in the top-level declarations
// it names, where the files around them differ by framework idiom.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ts from 'typescript';
import { parse } from 'yaml';
import { repoRoot } from '../paths.ts';
import copiesSchema from '../../schemas/impl-copies.schema.json' with { type: 'json' };

export interface CopyGroup {
  readonly name: string;
  /** Why these copies must agree. */
  readonly why: string;
  /** Paths from the repository root; the first is the one the others are compared with. */
  readonly files: readonly string[];
  /** When given, only these top-level declarations must agree (comments and layout aside); else the whole files, byte for byte. */
  readonly declarations?: readonly string[];
}

export interface Drift {
  readonly group: string;
  readonly reference: string;
  readonly copy: string;
  /** `the whole file` or `declaration <name>`. */
  readonly part: string;
  readonly diff: string;
}

export const copiesFile: string = path.join(repoRoot, 'harness', 'impl-copies.yaml');

const validate = new Ajv2020({ allErrors: true }).compile<{ groups: CopyGroup[] }>(copiesSchema);

/** The declared copy groups, validated against harness/schemas/impl-copies.schema.json. */
export async function readCopyGroups(file: string = copiesFile): Promise<readonly CopyGroup[]> {
  const declared: unknown = parse(await readFile(file, 'utf8'));
  if (!validate(declared)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    throw new Error(`${file}: invalid: ${errors}`);
  }
  return declared.groups;
}

/** What a group names that is not there: a file, or a declaration missing from one of its files. */
export async function missingParts(group: CopyGroup, root: string = repoRoot): Promise<string[]> {
  const missing: string[] = [];
  for (const file of group.files) {
    const text = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
    if (text === undefined) {
      missing.push(`${group.name}: ${file} does not exist`);
      continue;
    }
    const found = topLevelDeclarations(file, text);
    for (const name of group.declarations ?? []) if (!found.has(name)) missing.push(`${group.name}: ${file} has no top-level declaration ${name}`);
  }
  return missing;
}

/** Where the group's copies disagree with its first file (a part that is missing counts as empty). */
export async function drifts(group: CopyGroup, root: string = repoRoot): Promise<Drift[]> {
  const texts = await Promise.all(group.files.map((file) => readFile(path.join(root, file), 'utf8').catch(() => '')));
  const parts = group.files.map((file, i) => partsOf(group, file, texts[i] ?? ''));
  const [reference, ...copies] = group.files;
  const found: Drift[] = [];
  copies.forEach((copy, i) => {
    for (const [part, expected] of parts[0]!) {
      const actual = parts[i + 1]!.get(part) ?? '';
      if (actual !== expected) found.push({ group: group.name, reference: reference!, copy, part, diff: lineDiff(expected, actual) });
    }
  });
  return found;
}

/** A drift as a reader wants it: which group, which two files, which part, and the lines that differ. */
export function describeDrift(drift: Drift): string {
  return `${drift.group}: ${drift.part} of ${drift.copy} differs from ${drift.reference}\n--- ${drift.reference}\n+++ ${drift.copy}\n${drift.diff}`;
}

function partsOf(group: CopyGroup, file: string, text: string): Map<string, string> {
  if (!group.declarations) return new Map([['the whole file', text]]);
  const found = topLevelDeclarations(file, text);
  return new Map(group.declarations.map((name) => [`declaration ${name}`, found.get(name) ?? '']));
}

const printer = ts.createPrinter({ removeComments: true });

/**
 * A file's top-level functions, classes and variables by name, each printed without its
 * comments and in one layout, so that only a change of code counts. TypeScript loses its types
 * first, so that a TypeScript copy of JavaScript code agrees with it.
 */
function topLevelDeclarations(file: string, text: string): Map<string, string> {
  const js = file.endsWith('.ts') ? ts.transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext } }).outputText : text;
  const source = ts.createSourceFile(file, js, ts.ScriptTarget.ESNext, true, ts.ScriptKind.JS);
  const declarations = new Map<string, string>();
  for (const statement of source.statements) {
    const printed = (): string => printer.printNode(ts.EmitHint.Unspecified, statement, source);
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) declarations.set(statement.name.text, printed());
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) declarations.set(declaration.name.text, printed());
  }
  return declarations;
}

const CONTEXT_LINES = 2;

/** A line diff of two texts (`-` only in a, `+` only in b), with a little context around each change. */
export function lineDiff(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  // Longest common subsequence, by lengths from the end: the texts are a file or a declaration, small enough for n×m.
  const lcs = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      lines.push({ mark: ' ', text: x[i++]! });
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) lines.push({ mark: '-', text: x[i++]! });
    else lines.push({ mark: '+', text: y[j++]! });
  }
  const near = (k: number) => lines.slice(Math.max(0, k - CONTEXT_LINES), k + CONTEXT_LINES + 1).some((line) => line.mark !== ' ');
  const shown: string[] = [];
  lines.forEach((line, k) => {
    if (near(k)) shown.push(`${line.mark} ${line.text}`);
    else if (shown.at(-1) !== '  …') shown.push('  …');
  });
  return shown.join('\n');
}
