// Before a repetition starts, every server of the case and the database must be idle.
// The implementations of a case run side by side, and a JVM keeps a core busy for seconds
// after its load ends (measured here: spring used a whole core for 12 s after a first
// 26-s load, about 1 s after the next). Without this wait, that work lands on the core of
// whichever implementation is measured next, and an alternating comparison charges one
// implementation's background work (a JIT compiling what the load made hot) to another.
import { setTimeout as sleep } from 'node:timers/promises';
import { CLK_TCK, snapshot, treeOf, type Stat } from '../load/proc-sampler.ts';

/** Idle: the trees together used less than this share of one core over a window. */
export const IDLE_CPU_PERCENT = 5;
const WINDOW_MS = 500;
/** The longest wait before a repetition starts anyway (with a note): well above the 12 s seen. */
const SETTLE_MAX_SECONDS = 60;

export interface Settled {
  /** Seconds waited, the last (idle) window included. */
  readonly seconds: number;
  /** False when the wait hit its limit with the trees still busy. */
  readonly idle: boolean;
  /** The trees' CPU in the last window, % of one core. */
  readonly cpuPercent: number;
}

function ticksOf(roots: readonly number[], stats: ReadonlyMap<number, Stat>): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const root of roots) for (const pid of treeOf(root, stats)) ticks.set(pid, stats.get(pid)!.ticks);
  return ticks;
}

/** Waits until the process trees of `roots` are idle together, for at most `maxSeconds`. */
export async function settle(
  roots: readonly number[],
  maxSeconds = SETTLE_MAX_SECONDS,
  windowMs = WINDOW_MS,
  idlePercent = IDLE_CPU_PERCENT,
): Promise<Settled> {
  const from = Date.now();
  let before = ticksOf(roots, snapshot());
  let at = Date.now();
  for (;;) {
    await sleep(windowMs);
    const after = ticksOf(roots, snapshot());
    const now = Date.now();
    let ticks = 0;
    // A process that appeared within the window counts from zero.
    for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    const cpuPercent = Math.round((ticks / CLK_TCK / ((now - at) / 1000)) * 1000) / 10;
    const seconds = Math.round((now - from) / 100) / 10;
    if (cpuPercent < idlePercent) return { seconds, idle: true, cpuPercent };
    if (now - from >= maxSeconds * 1000) return { seconds, idle: false, cpuPercent };
    before = after;
    at = now;
  }
}
