// make checklist: every step of docs/adding-an-implementation.md for one implementation, in
// the guide's order (steps.ts, a step per API expanded for each API it lists), each with its
// state and the command that does it.
import * as files from './checks-files.ts';
import * as results from './checks-results.ts';
import { fill, type ApiFacts, type Context, type Outcome, type State } from './context.ts';
import { STEPS, type Per, type Step } from './steps.ts';

export interface Row {
  readonly id: string;
  readonly section: string;
  readonly title: string;
  readonly api?: string;
  readonly state: State;
  readonly why: string;
  readonly command: string;
}

function run(step: Step, ctx: Context, api?: string): Outcome | Promise<Outcome> {
  const check = step.check;
  const needsApi = (f: (a: string) => Promise<Outcome>): Promise<Outcome> =>
    api === undefined ? Promise.reject(new Error(`${step.id} is a step per API`)) : f(api);
  switch (check.kind) {
    case 'manifest':
      return files.manifestCheck(ctx);
    case 'field':
      return files.fieldCheck(check, ctx);
    case 'file':
      return files.fileCheck(check, ctx, api);
    case 'lock':
      return files.lockCheck(check, ctx);
    case 'mentions':
      return files.mentionsCheck(check, ctx);
    case 'image-roles':
      return files.imageRolesCheck(check, ctx);
    case 'readme-row':
      return files.readmeRowCheck(check, ctx);
    case 'containers':
      return results.containersCheck(check, ctx);
    case 'conformance':
      return needsApi((a) => results.conformanceCheck(check, ctx, a));
    case 'pact':
      return needsApi((a) => results.pactCheck(check, ctx, a));
    case 'resilience':
      return needsApi((a) => results.resilienceCheck(check, ctx, a));
    case 'fuzz':
      return needsApi((a) => results.fuzzCheck(check, ctx, a));
    case 'bench':
      return needsApi((a) => results.benchCheck(check, ctx, a));
  }
}

const APPLIES: Record<Exclude<Per, 'impl'>, (api: ApiFacts) => boolean> = {
  api: () => true,
  pact: (api) => api.hasPact,
  resilience: (api) => api.hasResilience,
};

export async function checklist(ctx: Context, steps: readonly Step[] = STEPS): Promise<Row[]> {
  const rows: Row[] = [];
  for (const step of steps) {
    const apis = step.per === 'impl' ? [undefined] : ctx.apis.filter(APPLIES[step.per]).map((a) => a.name);
    for (const api of apis) {
      const outcome = await run(step, ctx, api);
      rows.push({
        id: step.id,
        section: step.section,
        title: step.title,
        ...(api ? { api } : {}),
        state: outcome.state,
        why: outcome.why,
        command: outcome.command ?? fill(step.command, ctx, api),
      });
    }
  }
  return rows;
}

/** Two lines a step: state, section, title (· API) and why; then the command. */
export function formatChecklist(ctx: Context, rows: readonly Row[]): string {
  const count = (s: State) => rows.filter((r) => r.state === s).length;
  const head = `impl/${ctx.impl}: ${rows.length} steps of docs/adding-an-implementation.md (§ = its section): ${count('done')} done, ${count('missing')} missing, ${count('stale')} stale`;
  const lines = rows.map((r) => `${r.state.padEnd(8)}§${r.section.padEnd(4)} ${r.title}${r.api ? ` · ${r.api}` : ''}: ${r.why}\n${' '.repeat(14)}${r.command}`);
  const perApi = ctx.manifest instanceof Error ? ['(the steps per API follow once impl.yaml names the APIs it serves)'] : [];
  return [head, ...lines, ...perApi].join('\n');
}
