// make checklist's checks of what is written in the repository: the manifest and its fields,
// files that must exist, the lock file against its project file, the docs' lists of
// implementations, the README's matrix row.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { imageRoles } from '@fairbench/harness/impl/manifest.ts';
import { NO_VERDICT, parseMatrixTable } from '@fairbench/conformance/report/readme-matrix.ts';
import { fill, matching, type Context, type Outcome } from './context.ts';
import type { Check, ProjectKind } from './steps.ts';

type Of<K extends Check['kind']> = Extract<Check, { kind: K }>;

const NO_MANIFEST: Outcome = { state: 'missing', why: 'no valid impl.yaml to read it from' };

export function manifestCheck(ctx: Context): Outcome {
  if (ctx.manifest instanceof Error) return { state: 'missing', why: ctx.manifest.message.split('\n')[0]! };
  return { state: 'done', why: `impl/${ctx.impl}/impl.yaml is valid (${ctx.manifest.framework.name} ${ctx.manifest.framework.version})` };
}

/** A field the schema leaves optional (resilience, test) or that the guide's example leaves as "..." (tuning). */
export function fieldCheck(check: Of<'field'>, ctx: Context): Outcome {
  if (ctx.manifest instanceof Error) return NO_MANIFEST;
  const value = ctx.manifest[check.field];
  if (value === undefined || (typeof value === 'string' && /^\s*(\.\.\.|…)?\s*$/.test(value)))
    return { state: 'missing', why: `impl.yaml has no ${check.field}${typeof value === 'string' ? ' text' : ''}` };
  const shown = typeof value === 'string' ? value : `stall ${value.stallBoundMs} ms, shutdown ${value.shutdownBoundMs} ms`;
  return { state: 'done', why: `${check.field}: ${shown.length > 70 ? `${shown.slice(0, 69)}…` : shown}` };
}

export async function fileCheck(check: Of<'file'>, ctx: Context, api?: string): Promise<Outcome> {
  const paths = check.anyOf.map((p) => fill(p, ctx, api));
  for (const path of paths) {
    const found = await matching(ctx.root, path);
    if (found.length > 0) return { state: 'done', why: found.join(', ') };
  }
  return { state: 'missing', why: `no ${paths.join(' or ')}` };
}

export async function mentionsCheck(check: Of<'mentions'>, ctx: Context): Promise<Outcome> {
  const text = await readFile(join(ctx.root, check.file), 'utf8').catch(() => '');
  const pattern = new RegExp(check.pattern.replaceAll('{impl}', ctx.impl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'm');
  return pattern.test(text) ? { state: 'done', why: `${check.file} names it` } : { state: 'missing', why: `${check.file} does not name ${ctx.impl}` };
}

export async function imageRolesCheck(check: Of<'image-roles'>, ctx: Context): Promise<Outcome> {
  if (ctx.manifest instanceof Error) return NO_MANIFEST;
  const declared = (parse(await readFile(join(ctx.root, check.file), 'utf8').catch(() => '{}')) ?? {}) as Record<string, unknown>;
  const roles = imageRoles(ctx.manifest);
  const absent = roles.filter((r) => !(r in declared));
  return absent.length > 0
    ? { state: 'missing', why: `${check.file} declares no ${absent.join(', ')} image (the manifest's runtime or buildImage)` }
    : { state: 'done', why: `${roles.join(', ')} in ${check.file}` };
}

/** bun.lock is JSON with trailing commas. */
const parseLock = (text: string): unknown => JSON.parse(text.replace(/,(\s*[}\]])/g, '$1'));

const DEPENDENCY_LISTS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;
type Lists = Partial<Record<(typeof DEPENDENCY_LISTS)[number], Record<string, string>>>;

/** The first dependency whose version differs between the project file and the lock file's copy of it, or null. */
function firstDifference(project: Lists, locked: Lists): string | null {
  for (const list of DEPENDENCY_LISTS) {
    const [want, have] = [project[list] ?? {}, locked[list] ?? {}];
    for (const name of [...new Set([...Object.keys(want), ...Object.keys(have)])].sort())
      if (want[name] !== have[name]) return `${list}.${name}: ${want[name] ?? 'absent'} in the project file, ${have[name] ?? 'absent'} in the lock file`;
  }
  return null;
}

async function lockOf(kind: ProjectKind, ctx: Context, projectFile: string): Promise<Outcome> {
  if (kind.locks.length === 0) return { state: 'done', why: kind.unlocked ?? 'no lock file for this kind of project' };
  const dir = `impl/${ctx.impl}`;
  for (const lock of kind.locks) {
    const text = await readFile(join(ctx.root, dir, lock.file), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    let copy: unknown = parseLock(text);
    for (const key of lock.root) copy = (copy as Record<string, unknown> | undefined)?.[key];
    const project = JSON.parse(await readFile(join(ctx.root, projectFile), 'utf8')) as Lists;
    const difference = firstDifference(project, (copy ?? {}) as Lists);
    const command = fill(lock.command, ctx);
    return difference === null
      ? { state: 'done', why: `${dir}/${lock.file} matches ${projectFile}`, command }
      : { state: 'stale', why: `${dir}/${lock.file} does not match ${projectFile} (${difference})`, command };
  }
  return { state: 'missing', why: `no ${kind.locks.map((l) => `${dir}/${l.file}`).join(' or ')}`, command: fill(kind.locks[0]!.command, ctx) };
}

export async function lockCheck(check: Of<'lock'>, ctx: Context): Promise<Outcome> {
  for (const kind of check.projects) {
    const [projectFile] = await matching(ctx.root, `impl/${ctx.impl}/${kind.project}`);
    if (projectFile !== undefined) return lockOf(kind, ctx, projectFile);
  }
  return { state: 'missing', why: 'no project file, so no lock file' };
}

/** The README's row, against the row make matrix prints from the verdicts on disk (cells it has no verdict for aside, as make readme keeps them). */
export async function readmeRowCheck(check: Of<'readme-row'>, ctx: Context): Promise<Outcome> {
  const readme = await readFile(join(ctx.root, check.readme), 'utf8').catch(() => '');
  const block = /<!-- generated:matrix -->([\s\S]*?)<!-- \/generated:matrix -->/.exec(readme)?.[1] ?? '';
  const row = parseMatrixTable(block).rows.get(ctx.impl);
  if (row === undefined) return { state: 'missing', why: `${check.readme}'s matrix has no ${ctx.impl} row` };
  const current = parseMatrixTable(await readFile(join(ctx.root, check.matrix), 'utf8').catch(() => '')).rows.get(ctx.impl);
  const differing = [...(current ?? new Map<string, string>())]
    .filter(([column, cell]) => cell !== NO_VERDICT && row.get(column) !== cell)
    .map(([column]) => column);
  return differing.length > 0
    ? { state: 'stale', why: `${check.readme}'s row differs from ${check.matrix} in ${differing.join(', ')}` }
    : {
        state: 'done',
        why: `${check.readme} has its row${current === undefined ? ' (no verdicts on disk to compare it with)' : ', as the verdicts on disk say'}`,
      };
}
