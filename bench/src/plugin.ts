// What an API plug-in (apis/<name>/bench/) takes from the benchmark, and nothing else:
// the module's contract (its types), the case filters, the native tier's twin cases, the
// baseline clients' kit (starting one, timing it, turning a native tool's output into the
// kit's). The rest of bench/src is the runner's own: an API imports it only through here.
export type { BaselineOptions, BenchModule, CaseSelection, Plan, PlannedCase, Prepared, WrkLoad } from './plan/api-module.ts';
export type { RunSettings } from './load/k6.ts';
export { checkChoices, selectCases } from './plan/select.ts';
export { withNativeTier } from './plan/tiers.ts';
export { loadYaml } from './yaml.ts';
export { startBaselineClient } from './load/baseline/launch.ts';
export { runNative } from './load/baseline/native.ts';
export { clientArgs, part, Recorder, sleep, type BaselineOutput, type LatencyUs } from './load/baseline/recorder.ts';
export { histogramLatency, parseSysbench, sysbenchOutput } from './load/baseline/sysbench.ts';
export { parsePgbenchLog, pgbenchOutput, type PgbenchTransaction } from './load/baseline/pgbench.ts';
