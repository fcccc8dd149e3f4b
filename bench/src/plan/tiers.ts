// The tiers of the limit at every load point: the database alone through a native client
// (sysbench, pgbench, go-tpc, a Go driver: never the bottleneck), the database alone through
// the implementation language's driver with the same pool, and the implementation over HTTP.
// An API whose `database` case is its driver tier adds a `native` case right after it.
import type { PlannedCase } from './api-module.ts';
import { BASELINE_PROTOCOL, NATIVE_PROTOCOL, type Tier } from '../record/result-document.ts';

/** After each `database` (driver) case, its native twin: same point and parameters, id `native/<model>/<point>`. */
export function withNativeTier<C extends PlannedCase>(cases: readonly C[]): C[] {
  return cases.flatMap((c) => {
    if (c.protocol !== BASELINE_PROTOCOL) return [c];
    const id = `${NATIVE_PROTOCOL}/${c.id.slice(BASELINE_PROTOCOL.length + 1)}`;
    return [
      { ...c, tier: 'driver' as Tier },
      { ...c, id, protocol: NATIVE_PROTOCOL, tier: 'native' as Tier },
    ];
  });
}
