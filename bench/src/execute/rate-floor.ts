// The floor at a case's rate: after a served case's repetitions, k6/floor.js (a plain http.get,
// no tag, check or custom metric) against the no-op target with the case's VUs, held by k6's
// --rps to the median rate the case reached. k6 spends a share of its core whatever its rate
// (the Go runtime, the metrics engine) and wakes up more often per request when requests come
// slower, so its CPU per request grows as its rate falls: the run's F, k6 at full speed against
// the same target, is not what a bare request costs k6 at a server's pace. This floor is, and
// the case's k6 µs per request over it is what the API's script adds (bench/docs/k6.md, "What
// k6 checks").
import { join } from 'node:path';
import { measureFloor, round2, startNoopTarget } from './ceiling.ts';
import type { Placement } from '../load/placement.ts';
import { median } from '../stats/descriptive.ts';
import type { CaseFloorAtRate, Repetition } from '../record/result-document.ts';
import type { PlannedCase } from '../plan/api-module.ts';

/** Seconds of the floor's warm-up and window: one per implementation and case, so short. */
export const RATE_FLOOR_LOAD = { warmupSeconds: 1, durationSeconds: 3 } as const;

/** The repetitions' median rate and median k6 µs per request; undefined when there is none to match. */
export function caseGeneratorCost(repetitions: readonly Repetition[]): { rate: number; generatorUs: number | undefined } | undefined {
  const rates = repetitions.map((r) => r.throughput).filter((x) => x > 0);
  if (!rates.length) return undefined;
  const us = repetitions.flatMap((r) => (r.cpuPerRequestUs?.generator !== undefined ? [r.cpuPerRequestUs.generator] : []));
  return { rate: median(rates), generatorUs: us.length ? median(us) : undefined };
}

/**
 * Measures the floor at `rate` with `vus` VUs in its own subdirectory of `workDir`, the
 * no-op target on the implementation's cores and k6 on the generator's, as in the case.
 * `generatorUs`: the case's median k6 µs per request, for the ratio. (The loop asks for it only
 * where the run's ceiling measured its floor: nginx is there.)
 */
export async function measureFloorAtRate(
  placement: Placement,
  workDir: string,
  rate: number,
  vus: number,
  generatorUs: number | undefined,
): Promise<CaseFloorAtRate> {
  const target = await startNoopTarget(placement, join(workDir, 'rate-floor'));
  try {
    const floor = await measureFloor(target, placement, target.dir, { vus, ...RATE_FLOOR_LOAD, rps: rate });
    return {
      vus,
      targetRate: Math.round(rate * 10) / 10,
      rate: floor.rate,
      requests: floor.requests,
      durationSeconds: RATE_FLOOR_LOAD.durationSeconds,
      cpuPerRequestUs: floor.cpuPerRequestUs,
      ...(generatorUs !== undefined ? { overFloor: round2(generatorUs / floor.cpuPerRequestUs) } : {}),
    };
  } finally {
    await target.stop();
  }
}

/** One line for the console. */
export function describeFloorAtRate(f: CaseFloorAtRate): string {
  return (
    `k6 floor at ${Math.round(f.targetRate)} req/s with ${f.vus} VUs: ${f.cpuPerRequestUs} µs per bare request (${Math.round(f.rate)} req/s sent)` +
    (f.overFloor !== undefined ? `; the case's k6 ${f.overFloor} × it` : '')
  );
}

/**
 * The case loop's floorAtRate: for a case whose load has a fixed number of VUs (the script's
 * VUS), the floor at its repetitions' median rate, printed; undefined for the others (flows
 * whose VUs follow stages).
 */
export function floorAtCaseRate<C extends PlannedCase>(
  vusOf: (c: C) => number | undefined,
  placement: Placement,
  workDir: string,
): (c: C, repetitions: readonly Repetition[], label: string) => Promise<CaseFloorAtRate | undefined> {
  return async (c, repetitions, label) => {
    const vus = vusOf(c);
    const cost = caseGeneratorCost(repetitions);
    if (vus === undefined || !cost) return undefined;
    const floor = await measureFloorAtRate(placement, workDir, cost.rate, vus, cost.generatorUs);
    console.log(`  ${label}: ${describeFloorAtRate(floor)}`);
    return floor;
  };
}
