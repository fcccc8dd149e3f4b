// Proof of work (issue 57): a repetition's answers, counted by k6 per request type, against
// the work the database counted over the same window (harness/src/work/) and the API's work
// model (apis/<api>/bench/work.yaml, loaded by bench/src/plan/work-model.ts). An
// implementation that caches answers, skips or defers a write or answers from stale rows
// under load does less work per answer than the model allows: its repetition is `missing
// work`. More work than the model's maximum (a pool's ping, a re-prepared statement) is only
// noted: it costs the implementation time, it wins it nothing.
import type { WorkCounter } from '@fairbench/harness/work/counters.ts';

/** A bound per answer: a number, or a numeric parameter of the case (forum's `rows`) plus a constant. */
export type WorkAmount = number | { readonly parameter: string; readonly plus?: number };

export interface WorkBound {
  readonly min?: WorkAmount;
  readonly max?: WorkAmount;
  /** Where the number comes from (the spec, a conformance case, the implementations' SQL). */
  readonly why: string;
  /**
   * Database-alone tiers whose client does not do this work by design (the users API's native
   * client loads no caller: it has no tokens, and its source is frozen with the tools bundle):
   * the bound does not hold in their windows.
   */
  readonly exceptTiers?: readonly string[];
}

export interface WorkModel {
  /** The engine whose counters the model names (DatabaseServer.engine.name). */
  readonly engine: string;
  /** The share of the modelled work a window may lack: answers whose work straddles its edges. */
  readonly tolerance: number;
  readonly requestTypes: Readonly<Record<string, { readonly counters: Readonly<Record<string, WorkBound>> }>>;
}

/** The work a window's database did: WorkDifference of harness/src/work/ (its engine, counters, what is unavailable and why). */
export interface WindowWork {
  readonly engine: string;
  /** The window's length (k6's). */
  readonly seconds: number;
  /** How far the readings lay from the window's ends, together (a reading a second: up to about 1 s). */
  readonly edgeSeconds?: number;
  /**
   * The readings lie outside the window (one at or before its start, one at or after its end):
   * none of its work is missing from their difference, though up to edgeSeconds of other work
   * may be in it. Else (a reading missing on one side) the edges may lack some of the window's work.
   */
  readonly enclosing?: boolean;
  readonly counters: Readonly<Record<string, WorkCounter>>;
  readonly unavailable: Readonly<Record<string, string>>;
}

export interface WorkContext {
  /** The case's numeric parameters (forum: rows, joins) for bounds that name one. */
  readonly parameters: Readonly<Record<string, number>>;
  /**
   * Whether anything else worked on the server in the window (a switched load's other
   * implementation on its sibling database): server-wide counters then prove nothing.
   */
  readonly sharedServer: boolean;
  /** The case's tier (native, driver, http): a bound's exceptTiers leave it out. */
  readonly tier?: string;
}

export interface CounterCheck {
  readonly counter: string;
  readonly observed?: number;
  /** What the answers required at least, before the tolerance; at most, where every request type present has a maximum. */
  readonly min?: number;
  readonly max?: number;
  readonly status: 'ok' | 'missing' | 'excess' | 'not checkable';
  readonly why?: string;
}

export interface WorkVerdict {
  readonly verdict: 'checked' | 'missing work' | 'not checkable';
  /** What the verdict rests on: the missing counters, or why nothing could be checked. */
  readonly reasons: readonly string[];
  readonly counters: readonly CounterCheck[];
  /** The window's answers per request type (requests that did not fail): each counter per answer is observed over these. */
  readonly answers?: Readonly<Record<string, number>>;
}

/** k6's count of one request type in the window (RequestTypeResult): answers are the requests that did not fail. */
export type Answers = Readonly<Record<string, { readonly requests: number; readonly errors: number }>>;

const amount = (a: WorkAmount, parameters: WorkContext['parameters']): number => {
  if (typeof a === 'number') return a;
  const p = parameters[a.parameter];
  if (p === undefined) throw new Error(`work model: a bound names the parameter ${a.parameter}, which the case does not have`);
  return p + (a.plus ?? 0);
};

/** The window's work against the model, counter by counter, summed over the request types answered in it. */
export function checkWork(model: WorkModel, answers: Answers, work: WindowWork, context: WorkContext): WorkVerdict {
  if (work.engine !== model.engine) return notCheckable(`the model counts ${model.engine}'s counters; the database was ${work.engine}`);
  const types = Object.entries(answers).filter(([, a]) => a.requests > 0);
  if (types.length === 0) return notCheckable('no answers in the window');
  const unmodelled = types.filter(([t]) => !model.requestTypes[t]).map(([t]) => t);
  const names = [...new Set(types.flatMap(([t]) => Object.keys(model.requestTypes[t]?.counters ?? {})))].sort();
  const counters = names.map((name) => checkCounter(name, model, types, unmodelled, work, context));
  const answered = Object.fromEntries(types.map(([t, a]) => [t, a.requests - a.errors]));
  const checked = counters.filter((c) => c.status !== 'not checkable');
  const missing = counters.filter((c) => c.status === 'missing');
  const unchecked = counters.filter((c) => c.status === 'not checkable').map((c) => `${c.counter}: ${c.why}`);
  if (missing.length) return { verdict: 'missing work', reasons: missing.map((c) => `${c.counter}: ${c.why}`), counters, answers: answered };
  if (checked.length === 0)
    return {
      verdict: 'not checkable',
      reasons: unchecked.length ? unchecked : ['the model bounds no counter of these request types'],
      counters,
      answers: answered,
    };
  const notes = unmodelled.length ? [`no work model for ${unmodelled.join(', ')}: only lower bounds hold`] : [];
  return { verdict: 'checked', reasons: [...notes, ...unchecked], counters, answers: answered };
}

function checkCounter(
  name: string,
  model: WorkModel,
  types: readonly (readonly [string, { readonly requests: number; readonly errors: number }])[],
  unmodelled: readonly string[],
  work: WindowWork,
  context: WorkContext,
): CounterCheck {
  const counter = work.counters[name];
  if (!counter) return { counter: name, status: 'not checkable', why: work.unavailable[name] ?? `the ${work.engine} reader gives no such counter` };
  if (counter.scope === 'server' && context.sharedServer) {
    return { counter: name, observed: counter.value, status: 'not checkable', why: 'server-wide, and another load shared the server' };
  }
  // A lower bound needs only the answers' own minima (work is never negative); an upper
  // bound needs a maximum for every request sent, failed ones included.
  let min = 0;
  let max: number | undefined = unmodelled.length ? undefined : 0;
  for (const [type, a] of types) {
    const declared = model.requestTypes[type]?.counters[name];
    const bound = context.tier !== undefined && declared?.exceptTiers?.includes(context.tier) ? undefined : declared;
    if (bound?.min !== undefined) min += amount(bound.min, context.parameters) * (a.requests - a.errors);
    if (max !== undefined) max = bound?.max === undefined ? undefined : max + amount(bound.max, context.parameters) * a.requests;
  }
  // A counter that trails the work (lagMs) may lack that much of the window's end, and hold
  // as much from before its start. Readings outside the window add other work (the maximum's
  // slack); readings inside it, where none lay outside, may lack some of its own (the minimum's).
  const lagShare = (counter.lagMs ?? 0) / 1000 / work.seconds;
  const edgeShare = (work.edgeSeconds ?? 0) / work.seconds;
  const minShare = lagShare + (work.enclosing ? 0 : edgeShare);
  if (minShare >= 1) {
    const why = `read ${work.edgeSeconds ?? 0} s inside the window's ends and trailing the work by ${counter.lagMs ?? 0} ms, in a window of ${work.seconds} s`;
    return { counter: name, observed: counter.value, status: 'not checkable', why };
  }
  const floor = min * (1 - model.tolerance - minShare);
  const slack = model.tolerance + lagShare + edgeShare;
  const base = { counter: name, observed: counter.value, min, ...(max !== undefined ? { max } : {}) };
  if (counter.value < floor) {
    const share = min > 0 ? ` (${((100 * counter.value) / min).toFixed(1)}% of it)` : '';
    return { ...base, status: 'missing', why: `${counter.value} counted, the answers needed at least ${min}${share}` };
  }
  if (max !== undefined && counter.value > max * (1 + slack)) return { ...base, status: 'excess', why: `${counter.value} counted, the model allows ${max}` };
  return { ...base, status: 'ok' };
}

const notCheckable = (why: string): WorkVerdict => ({ verdict: 'not checkable', reasons: [why], counters: [] });
