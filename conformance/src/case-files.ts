// Loads the YAML case files of an API and checks them against
// conformance/schemas/case-files.schema.json, so a malformed case fails loudly
// instead of silently testing nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Api } from '@fairbench/harness/api/manifest.ts';
import type { ChangeSpec } from './changes.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import caseFilesSchema from '../schemas/case-files.schema.json' with { type: 'json' };

export type Args = Readonly<Record<string, number>>;
export interface Ask {
  readonly operation: string;
  readonly args: Args;
}

export interface OperationsFile {
  readonly operations: Readonly<Record<string, { readonly rest: string; readonly graphql: string; readonly maxStatements: number }>>;
}
export interface QuestionsFile {
  readonly dataset: string;
  readonly questions: readonly (Ask & { readonly id: string })[];
}
export type ScenarioStep = { readonly ask: Ask } | { readonly change: ChangeSpec };
export interface ScenariosFile {
  readonly scenarios: readonly { readonly id: string; readonly why: string; readonly steps: readonly ScenarioStep[] }[];
}
export interface BadInputRequest {
  readonly method?: string;
  readonly path?: string;
  readonly line?: string;
  readonly raw?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** latin1: body's characters sent as single bytes (\xff is the byte 0xFF), a body that is not UTF-8. */
  readonly bodyEncoding?: 'latin1';
  /** A valid GraphQL query padded with ignored whitespace to this size: only its size is wrong. */
  readonly oversizedGraphql?: { readonly query: string; readonly kib: number };
  /** A valid JSON object padded to this size (application/json): only its size is wrong. */
  readonly oversizedJsonKiB?: number;
  /** The body is this many nested JSON arrays ([[[…]]]), application/json: valid JSON, nested deeper than any schema. */
  readonly nestedArrays?: number;
  /** The body sent chunked (no Content-Length), all of it before the answer is read. */
  readonly chunked?: boolean;
}
export interface GraphqlRequestSpec {
  readonly query?: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly operationName?: string;
  readonly body?: unknown;
}
export interface Expectation {
  readonly status?: number;
  readonly problem?: string;
  /**
   * The HTTP server itself may refuse this request before any application code runs, with the
   * status and no body (Kestrel refuses a decoded NUL in a path so, and offers no hook); a body,
   * when there is one, must still be the problem (never an HTML page).
   */
  readonly refusedByServer?: true;
  readonly graphqlRequestError?: true;
  readonly graphqlFieldError?: string;
  readonly graphqlOk?: true;
}
export interface BadInputCase {
  readonly id: string;
  readonly each?: { readonly value: readonly string[] };
  readonly request?: BadInputRequest;
  readonly graphql?: GraphqlRequestSpec;
  readonly expect: Expectation;
}
export interface BadInputFile {
  readonly cases: readonly BadInputCase[];
}

/** A token the suite forges: HS256 with the implementation's secret (or a wrong one), or alg none. */
export interface JwtSpec {
  readonly sub?: unknown;
  readonly role?: unknown;
  readonly expiresInSeconds?: number;
  readonly alg?: 'HS256' | 'none';
  readonly secret?: 'right' | 'wrong';
  /** Extra claims, or overrides. */
  readonly claims?: Readonly<Record<string, unknown>>;
}
export interface FlowRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly json?: unknown;
  readonly body?: string;
  /** latin1: body's characters sent as single bytes (\xff is the byte 0xFF), a body that is not UTF-8. */
  readonly bodyEncoding?: 'latin1';
  readonly oversizedJsonKiB?: number;
  /** The body sent chunked (no Content-Length), all of it before the answer is read. */
  readonly chunked?: boolean;
  readonly auth?: string | { readonly jwt: JwtSpec };
  readonly authorization?: string;
}
export interface FlowExpectation {
  readonly status: number;
  readonly problem?: string;
  /**
   * The HTTP server itself may refuse this request before any application code runs, with the
   * status and no body (Kestrel refuses a decoded NUL in a path so, and offers no hook); a body,
   * when there is one, must still be the problem (never an HTML page).
   */
  readonly refusedByServer?: true;
  readonly json?: unknown;
  readonly jsonContains?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}
/** A direct read of stored data: a MongoDB collection and filter, or a SQL table and an equality `where`. */
export type DbCheck = (
  | { readonly collection: string; readonly filter: Readonly<Record<string, unknown>> }
  | { readonly table: string; readonly where: Readonly<Record<string, unknown>> }
) & { readonly expect?: unknown; readonly count?: number | string };

/** The source (collection or table) and filter of a db check, whichever database it reads. */
export function dbCheckTarget(check: DbCheck): { source: string; filter: Readonly<Record<string, unknown>> } {
  return 'collection' in check ? { source: check.collection, filter: check.filter } : { source: check.table, filter: check.where };
}
export interface TallyEntry {
  readonly times?: number;
  readonly atLeast?: number;
  readonly saveCount?: string;
  readonly expect: FlowExpectation;
}
export type FlowStep =
  | {
      readonly request: FlowRequest;
      readonly expect: FlowExpectation;
      readonly save?: Readonly<Record<string, string>>;
      /** Sends the request this many times at once; each answer must meet `expect`, and `save` keeps an array of the values, in sending order. */
      readonly parallel?: number;
      /** At most this many SQL statements may the implementation run for the request (an N+1 check; needs the fixture's `statements`). */
      readonly maxStatements?: number;
    }
  | {
      readonly request: FlowRequest;
      /**
       * Sends the request `parallel` times at once (or once per value of `vary`); each answer must
       * meet one entry's `expect` (the first it meets counts), and each entry must be met exactly
       * `times` times (a race with one winner) or at least `atLeast` times; `saveCount` keeps how
       * many met it in that variable.
       */
      readonly tally: readonly TallyEntry[];
      readonly parallel?: number;
      /** One request per value, all at once, with {{name}} bound to the value (a race of different requests). */
      readonly vary?: Readonly<Record<string, readonly unknown[]>>;
    }
  | { readonly db: DbCheck };
export interface Flow {
  readonly id: string;
  readonly why: string;
  readonly each?: Readonly<Record<string, readonly unknown[]>>;
  readonly steps: readonly FlowStep[];
}
export interface FlowsFile {
  /** Checked on every response of the API's flows. */
  readonly forbidden?: { readonly keys?: readonly string[]; readonly patterns?: readonly string[] };
  /** Checked on every response of the API's flows: each header present and matching its regex. */
  readonly required?: { readonly headers?: Readonly<Record<string, string>> };
  readonly flows: readonly Flow[];
}

interface Kinds {
  operations: OperationsFile;
  questions: QuestionsFile;
  scenarios: ScenariosFile;
  flows: FlowsFile;
  'bad-input': BadInputFile;
}

const ajv = newAjv();
ajv.addSchema(caseFilesSchema);

/** An API's case files live in apis/<name>/conformance/cases/<kind>.yaml. */
export function caseFile(api: Api, kind: keyof Kinds): string {
  return join(api.dir, 'conformance', 'cases', `${kind}.yaml`);
}

export async function loadCaseFile<K extends keyof Kinds>(api: Api, kind: K): Promise<Kinds[K]> {
  const file = caseFile(api, kind);
  const data: unknown = parse(await readFile(file, 'utf8'));
  const validate = ajv.getSchema(`urn:fairbench:schema:case-files#/$defs/${kind}`);
  if (validate === undefined) throw new Error(`no schema for case file kind '${kind}'`);
  if (!validate(data)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
    throw new Error(`${file} does not match its schema:\n  ${errors.join('\n  ')}`);
  }
  return data as Kinds[K];
}

/** A case with `each` becomes one case per value, with {value} substituted. */
export function expandEach(c: BadInputCase): { id: string; value: string | undefined }[] {
  return c.each === undefined ? [{ id: c.id, value: undefined }] : c.each.value.map((value) => ({ id: `${c.id}[${value}]`, value }));
}
