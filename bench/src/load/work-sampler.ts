// The database's work counters read through a load (harness/src/work/), about once a second
// from before it starts until after it ends, so that the work of any window inside it (a
// repetition's, after k6's warm-up; a switched load's slices) is the difference between the
// readings that enclose it (the last taken by its start, the first begun at or after its end:
// a reading in flight at the end read some counters before it), with how far those readings
// lie from its ends. Enclosing, not nearest: a reading inside a short window would cut off a
// whole phase of it (a sequential protocol's creates or deletes).
import { setTimeout as sleep } from 'node:timers/promises';
import { workDifference, type WorkReader, type WorkSnapshot } from '@fairbench/harness/work/index.ts';
import type { WindowWork } from '../record/work-check.ts';

export class WorkSampler {
  private readonly readings: WorkSnapshot[] = [];
  private running = false;
  private readonly stopped = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private error: string | undefined;
  private readonly reader: WorkReader;
  private readonly everyMs: number;

  constructor(reader: WorkReader, everyMs = 1_000) {
    this.reader = reader;
    this.everyMs = everyMs;
  }

  /** Takes the first reading (before the load starts), then one every `everyMs` until stop(). */
  async start(): Promise<void> {
    await this.read();
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        // stop() ends the wait at once: its reading is then the load's end, not up to a second after it.
        await sleep(this.everyMs, undefined, { signal: this.stopped.signal }).catch(() => {});
        if (this.running) await this.read();
      }
    })();
  }

  /** Takes the last reading (after the load ended) and closes the reader. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopped.abort();
    await this.loop;
    await this.read();
    await this.reader.close().catch(() => {});
  }

  /** The work between the readings that enclose `from`..`to` (Date.now() ms; else the nearest), or why there is none. */
  between(from: number, to: number): WindowWork | string {
    if (this.error && this.readings.length < 2) return `the database's counters could not be read: ${this.error}`;
    const nearest = (t: number) => this.readings.reduce((best, r) => (Math.abs(r.at - t) < Math.abs(best.at - t) ? r : best));
    if (this.readings.length < 2) return 'fewer than two readings of the counters';
    const before = this.readings.findLast((r) => r.at <= from);
    const after = this.readings.find((r) => r.readFrom >= to);
    const [a, b] = [before ?? nearest(from), after ?? nearest(to)];
    if (a.at >= b.at) return `no two readings around the window of ${((to - from) / 1000).toFixed(1)} s`;
    // The readings between them are the reader's own work too (MariaDB: a SELECT each).
    const d = workDifference(
      a,
      b,
      this.readings.filter((r) => r.at > a.at && r.at < b.at),
    );
    return {
      engine: d.engine,
      seconds: (to - from) / 1000,
      counters: d.counters,
      unavailable: d.unavailable,
      // Up to this much other work on either side: since the first reading began, until the last ended.
      edgeSeconds: (Math.abs(from - a.readFrom) + Math.abs(b.at - to)) / 1000,
      enclosing: before !== undefined && after !== undefined,
    };
  }

  private async read(): Promise<void> {
    try {
      this.readings.push(await this.reader.snapshot());
    } catch (error) {
      // A reading that fails (the database busy past its timeout) leaves a gap; the nearest others stand in.
      this.error ??= error instanceof Error ? error.message : String(error);
    }
  }
}
