// Provider verification of one implementation × API: the implementation is seeded, built and
// started as for conformance (make pact starts it once for all its APIs: launchTargets), the
// API's provider states write its database directly, and Pact's verifier replays every
// interaction of the pact against it.
// A failing run is replayed one interaction at a time, so the verdict names each failing one.
import { Verifier, type VerifierOptions } from '@pact-foundation/pact-core';
import { launchTarget, type LaunchedTarget, type Target } from '@fairbench/conformance/launch-target.ts';
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { implTreeHash } from '@fairbench/harness/fingerprint.ts';
import { readFile } from 'node:fs/promises';
import type { PactApi } from './apis.ts';
import type { StateContext } from './module.ts';
import { pactFile, providerName } from './paths.ts';
import { startStateServer } from './state-server.ts';
import { contractHash, type InteractionResult, type PactVerdict } from './verdict.ts';

type Source = Pick<VerifierOptions, 'pactUrls' | 'pactBrokerUrl' | 'pactBrokerToken' | 'consumerVersionSelectors'>;

/** A broker instead of the local pact file, for users who have one (PACT_BROKER_URL, PACT_BROKER_TOKEN). */
function source(api: PactApi): { label: string; options: Source } {
  const broker = process.env.PACT_BROKER_URL;
  if (broker) {
    return {
      label: broker,
      options: {
        pactBrokerUrl: broker,
        consumerVersionSelectors: [{ latest: true }],
        ...(process.env.PACT_BROKER_TOKEN ? { pactBrokerToken: process.env.PACT_BROKER_TOKEN } : {}),
      },
    };
  }
  return { label: 'local', options: { pactUrls: [pactFile(api.name)] } };
}

/** One run of Pact's verifier (all interactions, or those PACT_DESCRIPTION selects); rejects when one fails. */
function verify(api: PactApi, launched: LaunchedTarget, statesUrl: string): Promise<string> {
  return new Verifier({
    provider: providerName(api.name),
    providerBaseUrl: launched.running.baseUrl,
    ...source(api).options,
    providerStatesSetupUrl: statesUrl,
    providerStatesSetupTeardown: false,
    providerStatesSetupBody: true,
    logLevel: 'error',
    timeout: 60_000,
  }).verify();
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function descriptions(api: PactApi): Promise<string[]> {
  const pact = JSON.parse(await readFile(pactFile(api.name), 'utf8')) as { interactions: { description: string }[] };
  return pact.interactions.map((i) => i.description);
}

/** Every interaction at once; on failure each alone (PACT_DESCRIPTION filters the verifier). */
async function verifyAll(api: PactApi, launched: LaunchedTarget, ctx: StateContext, isolate?: readonly string[]): Promise<InteractionResult[]> {
  const all = await descriptions(api);
  const states = await startStateServer(api.pact.states, ctx);
  try {
    return await verifyEach(api, launched, states.url, all, isolate);
  } finally {
    await states.close();
  }
}

async function verifyEach(
  api: PactApi,
  launched: LaunchedTarget,
  statesUrl: string,
  all: readonly string[],
  isolate?: readonly string[],
): Promise<InteractionResult[]> {
  try {
    await verify(api, launched, statesUrl);
    return all.map((description) => ({ description, passed: true }));
  } catch (whole) {
    const results: InteractionResult[] = [];
    for (const description of all.filter((d) => !isolate || isolate.includes(d))) {
      process.env.PACT_DESCRIPTION = `^${escapeRegex(description)}$`;
      try {
        await verify(api, launched, statesUrl);
        results.push({ description, passed: true });
      } catch (error) {
        results.push({ description, passed: false, problem: (error instanceof Error ? error.message : String(error)).split('\n')[0]! });
      } finally {
        delete process.env.PACT_DESCRIPTION;
      }
    }
    // The run failed, yet no interaction replayed alone did (another one, or the verifier itself): say so.
    if (results.every((r) => r.passed))
      results.push({
        description: '(the verification run as a whole)',
        passed: false,
        problem: (whole instanceof Error ? whole.message : String(whole)).split('\n')[0]!,
      });
    return results;
  }
}

/**
 * Verifies the pair; `isolate` (the mutation check) limits the one-by-one replay of a failing
 * run to the interactions it asks about, so the verdict then lists only those. `shared`: the
 * implementation already seeded and started for this API among others (launchTargets), which the
 * caller stops; otherwise it is launched for this pair and stopped after.
 */
export async function verifyTarget(
  target: Target,
  api: PactApi,
  databases: ReadonlyMap<DatabaseKind, DatabaseServer>,
  isolate?: readonly string[],
  shared?: LaunchedTarget,
): Promise<PactVerdict> {
  const started = performance.now();
  const common = {
    schemaVersion: 1 as const,
    implementation: target.impl.manifest.name,
    api: api.name,
    implTreeHash: await implTreeHash(target.impl.dir),
    contractHash: await contractHash(api, target.impl.manifest.name),
    source: source(api).label,
  };
  let launched: LaunchedTarget | undefined;
  try {
    launched = shared ?? (await launchTarget(target, databases));
    const used = new Map(api.manifest.databases.map((k) => [k, databases.get(k)!]));
    const ctx: StateContext = { databases: used, seeded: launched.seeded, jwtSecret: launched.jwtSecret };
    const verifyStarted = performance.now();
    const results = await verifyAll(api, launched, ctx, isolate);
    const failing = results.filter((r) => !r.passed);
    return {
      ...common,
      status: failing.length === 0 ? 'passed' : 'failed',
      provider: launched.running.runtime === 'containers' ? 'containers' : 'local',
      startupMs: Math.round(launched.running.startupMs),
      verifyMs: Math.round(performance.now() - verifyStarted),
      durationMs: Math.round(performance.now() - started),
      recordedAt: new Date().toISOString(),
      passed: results.length - failing.length,
      failed: failing.length,
      total: results.length,
      failing: failing.map((r) => r.description),
      interactions: results,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...common,
      status: 'error',
      reason,
      durationMs: Math.round(performance.now() - started),
      recordedAt: new Date().toISOString(),
      passed: 0,
      failed: 0,
      total: 0,
      failing: [],
    };
  } finally {
    if (shared === undefined) await launched?.stop();
  }
}
