// Flows: request sequences that write, with values saved from one response and
// used in the next (a registered user's id, a login's token), forged tokens, one
// request sent many times at once (parallel: N), and direct reads of the stored
// records (a MongoDB collection or a SQL table). After every flow, the API's own
// invariants on its data (when its fixture has some). On every response: no 5xx, the spec's
// schema, the API's forbidden keys and patterns; on every rejected request (an
// expected 4xx): the database digest is unchanged and the process alive. A flow
// that changed the data is followed by a reset to the seed, so flows stay independent.
import type { FlowsFixture } from '../api-module.ts';
import { dbCheckTarget, type DbCheck, type Flow, type FlowExpectation, type FlowRequest, type FlowsFile, type TallyEntry } from '../case-files.ts';
import { problemChecks, refusedByServer } from '../checks/problem.ts';
import { serverTimingProblems } from '../checks/server-timing.ts';
import type { SuiteContext } from '../context.ts';
import { forgeToken } from '../flows/jwt.ts';
import { forbiddenKeysIn, mismatches } from '../flows/match.ts';
import { atPointer, substitute, type Variables } from '../flows/variables.ts';
import { describe, latin1Bytes, send, type HttpRequest, type HttpResponse } from '../http.ts';
import { runCase, type CaseResult } from '../outcome.ts';

export async function runFlows(ctx: SuiteContext, fixture: FlowsFixture, file: FlowsFile): Promise<CaseResult[]> {
  const forbidden = {
    keys: new Set(file.forbidden?.keys ?? []),
    patterns: (file.forbidden?.patterns ?? []).map((p) => new RegExp(p)),
    headers: Object.entries(file.required?.headers ?? {}).map(([name, p]) => [name, new RegExp(p)] as const),
  };
  const seed = await ctx.store.digest();
  const results: CaseResult[] = [];
  for (const flow of file.flows) {
    for (const { id, vars } of expand(flow, fixture.variables)) {
      if (ctx.selects && !ctx.selects(`flows/${id}`)) continue;
      results.push(
        await runCase(`flows/${id}`, 'flows', async () => {
          try {
            const failures = await runSteps(ctx, fixture, flow, vars, forbidden);
            if (fixture.invariants !== undefined) failures.push(...(await fixture.invariants()).map((v) => `after the flow: ${v}`));
            return failures;
          } finally {
            if ((await ctx.store.digest()) !== seed) await ctx.reset();
          }
        }),
      );
    }
  }
  return results;
}

interface Forbidden {
  readonly keys: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
  /** Not forbidden but required: headers every response must carry (file.required). */
  readonly headers: readonly (readonly [string, RegExp])[];
}

/** A flow with `each: {name: [values]}` is one case per value, {{name}} bound to it. */
function expand(flow: Flow, seedVars: Variables): { id: string; vars: Record<string, unknown> }[] {
  const entry = flow.each === undefined ? undefined : Object.entries(flow.each)[0];
  if (entry === undefined) return [{ id: flow.id, vars: { ...seedVars } }];
  const [name, values] = entry;
  return values.map((value) => ({
    id: `${flow.id}[${typeof value === 'string' ? value : JSON.stringify(value)}]`,
    vars: { ...seedVars, [name]: value },
  }));
}

async function runSteps(ctx: SuiteContext, fixture: FlowsFixture, flow: Flow, vars: Record<string, unknown>, forbidden: Forbidden): Promise<string[]> {
  for (const [i, step] of flow.steps.entries()) {
    let failures: string[];
    let label: string;
    if ('db' in step) {
      label = `step ${i + 1} (db ${dbCheckTarget(step.db).source})`;
      failures = await checkDatabase(fixture, substitute(step.db, vars) as DbCheck);
    } else {
      if ('tally' in step) {
        // One request per value of `vary` (its name bound to the value), else `parallel` copies of one.
        const [name, values] = Object.entries(step.vary ?? {})[0] ?? [];
        const reqs =
          name === undefined
            ? Array.from({ length: step.parallel! }, () => substitute(step.request, vars) as FlowRequest)
            : values!.map((value) => substitute(step.request, { ...vars, [name]: value }) as FlowRequest);
        const built = await Promise.all(reqs.map((r) => buildRequest(ctx, r)));
        label = `step ${i + 1} (${built[0]!.method} ${built[0]!.path}) ×${built.length} at once`;
        const tally = substitute(step.tally, vars) as typeof step.tally;
        const responses = await Promise.all(built.map((req) => send(ctx.baseUrl, req)));
        const outcome = tallied(
          responses.map((res, k) => tally.map((t) => checkResponse(ctx, built[k]!, res, t.expect, forbidden))),
          responses,
          tally,
        );
        if (outcome.failures.length > 0) return outcome.failures.map((f) => `${label}: ${f}`);
        for (const [j, t] of tally.entries()) if (t.saveCount !== undefined) vars[t.saveCount] = outcome.counts[j];
        continue;
      }
      const req = await buildRequest(ctx, substitute(step.request, vars) as FlowRequest);
      const expect = substitute(step.expect, vars) as FlowExpectation;
      label = `step ${i + 1} (${req.method} ${req.path})`;
      const copies = step.parallel ?? 1;
      label = copies > 1 ? `${label} ×${copies} at once` : label;
      const before = expect.status >= 400 ? await ctx.store.digest() : undefined;
      const statementsBefore = await statementCount(fixture, step.maxStatements);
      const responses = await Promise.all(Array.from({ length: copies }, () => send(ctx.baseUrl, req)));
      failures = firstFailures(responses.map((res) => checkResponse(ctx, req, res, expect, forbidden)));
      if (statementsBefore !== undefined) {
        const ran = (await statementCount(fixture, step.maxStatements))! - statementsBefore;
        if (ran > step.maxStatements!) failures.push(`ran ${ran} SQL statements, at most ${step.maxStatements} allowed (N+1 queries?)`);
      }
      if (before !== undefined) failures.push(...(await unchangedAfterRejection(ctx, before)));
      if (failures.length === 0 && step.save !== undefined) {
        for (const [name, from] of Object.entries(step.save)) {
          vars[name] = copies === 1 ? saved(responses[0]!, from) : responses.map((res) => saved(res, from));
        }
      }
    }
    // Later steps build on this one's outcome: the first failing step ends the flow.
    if (failures.length > 0) return failures.map((f) => `${label}: ${f}`);
  }
  return [];
}

/** The failures of one or many answers to the same request: each answer's, numbered when there are several, at most 5. */
function firstFailures(perResponse: readonly string[][]): string[] {
  if (perResponse.length === 1) return [...perResponse[0]!];
  const all = perResponse.flatMap((failures, i) => failures.map((f) => `answer ${i + 1} of ${perResponse.length}: ${f}`));
  return all.length > 5 ? [...all.slice(0, 5), `… and ${all.length - 5} more`] : all;
}

/**
 * A race's answers against its tally: each answer counts for the first entry it meets (an
 * answer meeting none fails with what the entry of its status, else the first, found), and
 * every entry must be met exactly `times` times, or at least `atLeast` times.
 */
function tallied(checks: readonly string[][][], responses: readonly HttpResponse[], tally: readonly TallyEntry[]): { failures: string[]; counts: number[] } {
  const counts = tally.map(() => 0);
  const unmatched: string[][] = [];
  for (const [i, perEntry] of checks.entries()) {
    const j = perEntry.findIndex((f) => f.length === 0);
    if (j >= 0) counts[j]! += 1;
    else {
      const k = Math.max(
        0,
        tally.findIndex((t) => t.expect.status === responses[i]!.status),
      );
      unmatched.push(perEntry[k]!.map((f) => `answer ${i + 1} of ${responses.length}: ${f}`));
    }
  }
  const all = unmatched.flat();
  const failures = all.length > 5 ? [...all.slice(0, 5), `… and ${all.length - 5} more`] : all;
  for (const [j, t] of tally.entries()) {
    if (t.times !== undefined && counts[j] !== t.times)
      failures.push(`expected ${t.times} answer(s) meeting entry ${j + 1} (status ${t.expect.status}), got ${counts[j]}`);
    if (t.atLeast !== undefined && counts[j]! < t.atLeast)
      failures.push(`expected at least ${t.atLeast} answer(s) meeting entry ${j + 1} (status ${t.expect.status}), got ${counts[j]}`);
  }
  return { failures, counts };
}

/** The fixture's statement counter when the step bounds statements (undefined otherwise); a bound without a counter is a case-file error. */
async function statementCount(fixture: FlowsFixture, max: number | undefined): Promise<number | undefined> {
  if (max === undefined) return undefined;
  if (fixture.statements === undefined) throw new Error("a step has maxStatements but the API's flows fixture counts no statements");
  return fixture.statements();
}

/** A saved value: `header:<name>` is a response header (absent: a failure), anything else a JSON pointer into the body. */
function saved(res: HttpResponse, from: string): unknown {
  if (!from.startsWith('header:')) return atPointer(res.json, from);
  const value = res.headers.get(from.slice('header:'.length));
  if (value === null) throw new Error(`the response has no ${from.slice('header:'.length)} header`);
  return value;
}

async function buildRequest(ctx: SuiteContext, r: FlowRequest): Promise<HttpRequest> {
  const headers: Record<string, string> = {};
  let body: string | Uint8Array | undefined;
  if (r.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(r.json);
  } else if (r.oversizedJsonKiB !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ padding: 'x'.repeat(r.oversizedJsonKiB * 1024) });
  } else if (r.body !== undefined) {
    body = r.bodyEncoding === 'latin1' ? latin1Bytes(r.body) : r.body;
  }
  if (typeof r.auth === 'string') headers['authorization'] = `Bearer ${r.auth}`;
  else if (r.auth !== undefined) headers['authorization'] = `Bearer ${await forgeToken(r.auth.jwt, ctx.jwtSecret)}`;
  if (r.authorization !== undefined) headers['authorization'] = r.authorization;
  Object.assign(headers, r.headers);
  return { method: r.method, path: r.path, headers, ...(body !== undefined ? { body } : {}), ...(r.chunked === true ? { chunked: true } : {}) };
}

function checkResponse(ctx: SuiteContext, req: HttpRequest, res: HttpResponse, expect: FlowExpectation, forbidden: Forbidden): string[] {
  if (res.status >= 500) return [`server error: ${describe(res)}`];
  if (refusedByServer(expect, res)) return [];
  const failures: string[] = [];
  if (expect.problem !== undefined) failures.push(...problemChecks(ctx, res, expect.status, expect.problem));
  else if (res.status !== expect.status) failures.push(`expected ${expect.status}, got ${describe(res)}`);
  // A response the spec does not declare is wrong even when the case did not think to check it.
  failures.push(...(ctx.openapi.problems(req, res) ?? []));
  failures.push(...serverTimingProblems(res));
  const keys = forbiddenKeysIn(res.json, forbidden.keys);
  if (keys.length > 0) failures.push(`the response contains forbidden keys: ${keys.join(', ')}`);
  for (const pattern of forbidden.patterns) if (pattern.test(res.text)) failures.push(`the response matches the forbidden pattern /${pattern.source}/`);
  for (const [name, pattern] of forbidden.headers) {
    const actual = res.headers.get(name);
    if (actual === null || !pattern.test(actual)) failures.push(`header ${name}: expected to match /${pattern.source}/, got ${JSON.stringify(actual)}`);
  }
  if (expect.json !== undefined) failures.push(...mismatches(expect.json, res.json, false));
  if (expect.jsonContains !== undefined) failures.push(...mismatches(expect.jsonContains, res.json, true));
  for (const [name, value] of Object.entries(expect.headers ?? {})) {
    const actual = res.headers.get(name);
    if (actual !== value) failures.push(`header ${name}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual)}`);
  }
  return failures;
}

async function unchangedAfterRejection(ctx: SuiteContext, before: string): Promise<string[]> {
  if (!ctx.alive()) return ['the implementation process exited'];
  return (await ctx.store.digest()) === before ? [] : ['a rejected request changed the stored data (database digest differs)'];
}

export async function checkDatabase({ records }: FlowsFixture, check: DbCheck): Promise<string[]> {
  const { source, filter } = dbCheckTarget(check);
  const failures: string[] = [];
  if (check.count !== undefined) {
    if (!Number.isInteger(check.count)) return [`the expected count is not an integer: ${JSON.stringify(check.count)}`];
    const count = await records.count(source, filter);
    if (count !== check.count) failures.push(`expected ${check.count} records matching ${JSON.stringify(filter)}, found ${count}`);
  }
  if (check.expect !== undefined) {
    const stored = await records.findOne(source, filter);
    if (check.expect === null) {
      if (stored !== null) failures.push(`expected no record matching ${JSON.stringify(filter)}, found one`);
    } else if (stored === null) {
      failures.push(`no stored record matches ${JSON.stringify(filter)}`);
    } else {
      failures.push(...mismatches(check.expect, stored, true).map((m) => `stored ${m}`));
    }
  }
  return failures;
}
