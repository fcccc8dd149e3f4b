// make work-table's rows (bench/src/report/model/work-per-answer.ts): the database's work per
// answer over the windows read, beside the model's, each window once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BenchResult, Repetition, RepetitionWork } from '../../src/record/result-document.ts';
import { workPerAnswer, workPerAnswerMarkdown } from '../../src/report/model/work-per-answer.ts';

const work = (observed: number, min: number, window: 'repetition' | 'load', answers?: Record<string, number>): RepetitionWork => ({
  window,
  verdict: observed < min ? 'missing work' : 'checked',
  reasons: [],
  counters: [{ counter: 'Com_select', observed, min, max: min, status: observed < min ? 'missing' : 'ok' }],
  ...(answers ? { answers } : {}),
});

const rep = (index: number, w: RepetitionWork, extra: Partial<Repetition> = {}): Repetition =>
  ({ index, requests: 100, errors: {}, requestTypes: { commentsByLimit: { requests: 100, errors: 0 } }, work: w, ...extra }) as unknown as Repetition;

const doc = (cases: BenchResult['cases']): BenchResult =>
  ({ api: 'forum', runId: 'r1', implementation: { name: 'express' }, options: {}, cases }) as unknown as BenchResult;

test("separate loads: each repetition's window; its answers from the check, or from its request types in older documents", () => {
  const rows = workPerAnswer([
    doc([
      {
        id: 'rest/closed/c1',
        protocol: 'rest',
        repetitions: [rep(1, work(100, 100, 'repetition', { commentsByLimit: 100 })), rep(2, work(300, 100, 'repetition'))],
      } as never,
      { id: 'database/closed/c1', protocol: 'database', repetitions: [rep(1, work(100, 100, 'repetition'))] } as never,
    ]),
  ]);
  assert.equal(rows.length, 1, 'served cases only');
  assert.deepEqual(
    { perAnswer: rows[0]!.perAnswer, modelMin: rows[0]!.modelMin, modelMax: rows[0]!.modelMax, windows: rows[0]!.windows },
    { perAnswer: 2, modelMin: 1, modelMax: 1, windows: 2 },
  );
  assert.deepEqual(rows[0]!.answers, { commentsByLimit: 200 });
});

test("a switched load's proof, recorded on each of its slices, is one window per process pair; a missing counter is counted", () => {
  const load1 = work(40, 200, 'load', { commentsByLimit: 200 });
  const load2 = work(200, 200, 'load', { commentsByLimit: 200 });
  const slices = [rep(1, load1, { process: 1 }), rep(2, load1, { process: 1 }), rep(3, load2, { process: 2 }), rep(4, load2, { process: 2 })];
  const [row] = workPerAnswer([doc([{ id: 'rest/closed/c1', protocol: 'rest', repetitions: slices } as never])]);
  assert.equal(row!.windows, 2);
  assert.equal(row!.perAnswer, 240 / 400);
  assert.equal(row!.missing, 1);
  assert.match(workPerAnswerMarkdown([row!]), /\| Com_select \| 0\.60 \| = 1\.00 \| 2 \(1 missing, 0 excess\) \|/);
});

test('a switched load without its answers (recorded before they were kept) is left out, not guessed', () => {
  const slices = [rep(1, work(40, 200, 'load'), { process: 1 })];
  assert.deepEqual(workPerAnswer([doc([{ id: 'rest/closed/c1', protocol: 'rest', repetitions: slices } as never])]), []);
});
