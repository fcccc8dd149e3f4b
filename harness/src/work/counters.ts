// A database's work counters, read from the database itself (never from the implementation
// that does the work), and the work done between two readings: what the benchmark checks
// each measured window's answers against (issue 57; bench/src/record/work-check.ts).
// Counters keep the engine's own names: each API runs on one kind of database, and its work
// model (apis/<api>/bench/work.yaml) names the counters it checks.

/**
 * `database`: this database's work alone (a comparison's other implementation, on its own
 * database of the same server, is not in it). `server`: every database's and every client's,
 * the reader's own statements taken out where the reader knows their cost.
 */
export type WorkScope = 'database' | 'server';

export interface WorkCounter {
  readonly value: number;
  readonly scope: WorkScope;
  /**
   * How far the counter may trail the work it counts, in ms, while the work goes on
   * (PostgreSQL's pg_stat_database); absent where it moves with each statement.
   */
  readonly lagMs?: number;
}

export interface WorkSnapshot {
  /** The engine as the provisioner names it (DatabaseServer.engine.name). */
  readonly engine: string;
  readonly database: string;
  /** When the reading began (ms since the epoch): its counters were read between then and `at`. */
  readonly readFrom: number;
  /** When the reading was taken, its last answer received (ms since the epoch). */
  readonly at: number;
  readonly counters: Readonly<Record<string, WorkCounter>>;
  /** Counters the model may name that this server cannot give, each with why. */
  readonly unavailable: Readonly<Record<string, string>>;
  /** What taking this reading adds to counters after it was read (taken out of the next difference). */
  readonly readerCost: Readonly<Record<string, number>>;
}

/** An open connection that reads one database's counters (index.ts opens one for any kind of server). */
export interface WorkReader {
  snapshot(): Promise<WorkSnapshot>;
  close(): Promise<void>;
}

export interface WorkDifference {
  readonly engine: string;
  readonly database: string;
  /** The window's length as the two readings saw it. */
  readonly seconds: number;
  readonly counters: Readonly<Record<string, WorkCounter>>;
  readonly unavailable: Readonly<Record<string, string>>;
}

/**
 * The work done between two readings of the same database: counters in both, less the own
 * cost of the first reading and of the readings `between` them (a reader reading through a load).
 */
export function workDifference(before: WorkSnapshot, after: WorkSnapshot, between: readonly WorkSnapshot[] = []): WorkDifference {
  if (before.engine !== after.engine || before.database !== after.database) {
    throw new Error(`workDifference: ${before.engine}/${before.database} and ${after.engine}/${after.database} are not the same database`);
  }
  if (after.at < before.at) throw new Error('workDifference: the second reading is older than the first');
  const counters: Record<string, WorkCounter> = {};
  const unavailable: Record<string, string> = { ...before.unavailable, ...after.unavailable };
  for (const [name, b] of Object.entries(before.counters)) {
    const a = after.counters[name];
    if (!a) {
      unavailable[name] ??= 'not in the second reading';
      continue;
    }
    const cost = [before, ...between].reduce((n, r) => n + (r.readerCost[name] ?? 0), 0);
    const value = a.value - b.value - cost;
    // Counters only grow: a smaller one is a restarted server or a reset, not negative work.
    if (value < 0) unavailable[name] = `went back from ${b.value} to ${a.value} (the server restarted or its statistics were reset)`;
    else counters[name] = { ...a, value };
  }
  for (const name of Object.keys(after.counters)) if (!(name in before.counters)) unavailable[name] ??= 'not in the first reading';
  return {
    engine: after.engine,
    database: after.database,
    seconds: (after.at - before.at) / 1000,
    counters,
    unavailable,
  };
}
