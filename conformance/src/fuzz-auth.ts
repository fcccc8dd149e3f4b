// The header that lets Schemathesis reach an API's authenticated operations: the API's
// manifest names a login request (with {{placeholders}} from its flows fixtures, e.g. a
// seeded user's credentials) and where the token is in the answer; we send it once
// before fuzzing and hand the token to every generated request.
import type { ApiManifest } from '@fairbench/harness/api/manifest.ts';
import type { AnyPreparedApi } from './api-module.ts';
import { send } from './http.ts';
import { atPointer, substitute } from './flows/variables.ts';

export type FuzzAuth = NonNullable<NonNullable<ApiManifest['conformance']['fuzz']>['auth']>;

/** "Name: value" for Schemathesis's --header, or undefined when the API names no login. */
export async function fuzzAuthHeader(auth: FuzzAuth | undefined, baseUrl: string, prepared: AnyPreparedApi): Promise<string | undefined> {
  if (auth === undefined) return undefined;
  const variables = prepared.fixtures.flows?.variables ?? {};
  const res = await send(baseUrl, {
    method: auth.login.method,
    path: auth.login.path,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(substitute(auth.login.json, variables)),
  });
  const token = atPointer(res.json, auth.token);
  if (res.status >= 300 || typeof token !== 'string' || token === '') {
    throw new Error(`fuzz login ${auth.login.method} ${auth.login.path} gave no token at ${auth.token} (HTTP ${res.status})`);
  }
  return `${auth.header}: ${auth.scheme} ${token}`;
}
