// The work per answer an implementation did, from its repetitions' proof of work
// (bench/src/record/work-check.ts): per served case and database counter, what the database
// counted divided by the answers in the checked windows, beside what the API's work model
// asks per answer (apis/<api>/bench/work.yaml, summed over the request types answered).
// Where a case sends one request type, that is the type's own work per answer (make work-table).
import { isDatabaseAlone, type BenchResult, type Repetition, type RepetitionWork } from '../../record/result-document.ts';
import { docLabel } from '../../record/copies.ts';

export interface WorkPerAnswerRow {
  readonly api: string;
  readonly runId: string;
  readonly implementation: string;
  readonly case: string;
  /** The request types answered in its windows, with their answers. */
  readonly answers: Readonly<Record<string, number>>;
  readonly counter: string;
  /** What the database counted per answer over the windows read. */
  readonly perAnswer: number;
  /** The model's per answer: at least, and at most where it bounds every type answered. */
  readonly modelMin: number;
  readonly modelMax?: number;
  /** Windows read: checked, and with this counter's work missing or in excess. */
  readonly windows: number;
  readonly missing: number;
  readonly excess: number;
}

/** A repetition's answers per request type, as the check counted them (documents recorded before the check kept them). */
function repetitionAnswers(r: Repetition): Record<string, number> {
  return Object.fromEntries(Object.entries(r.requestTypes ?? {}).map(([t, a]) => [t, a.requests - a.errors]));
}

/**
 * The windows read, each once with its answers: a repetition's own; a switched load's, whose
 * proof is recorded on each of its slices, once per load (its process pair). Documents recorded
 * before the check kept its answers give them where a window is one repetition.
 */
function windowsOf(reps: readonly Repetition[]): { work: RepetitionWork; answers: Record<string, number> }[] {
  const seen = new Set<string>();
  const out: { work: RepetitionWork; answers: Record<string, number> }[] = [];
  for (const r of reps) {
    if (!r.work || r.work.verdict === 'not checkable') continue;
    const answers = r.work.answers ?? (r.work.window === 'repetition' ? repetitionAnswers(r) : undefined);
    if (answers === undefined) continue;
    const key = r.work.window === 'load' ? `load ${r.process ?? 0}` : `repetition ${r.index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ work: r.work, answers: { ...answers } });
  }
  return out;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** One row per served case and counter of each document that recorded answers with its proof of work. */
export function workPerAnswer(docs: readonly BenchResult[]): WorkPerAnswerRow[] {
  const rows: WorkPerAnswerRow[] = [];
  for (const doc of docs)
    for (const c of doc.cases) {
      if (isDatabaseAlone(c.protocol)) continue;
      const windows = windowsOf([...c.repetitions, ...(c.invalidRepetitions ?? [])]);
      if (windows.length === 0) continue;
      const answers: Record<string, number> = {};
      for (const w of windows) for (const [type, n] of Object.entries(w.answers)) answers[type] = (answers[type] ?? 0) + n;
      const total = sum(Object.values(answers));
      if (total === 0) continue;
      const counters = [...new Set(windows.flatMap((w) => w.work.counters.map((k) => k.counter)))].sort();
      for (const counter of counters) {
        const readIn = windows.filter((w) => w.work.counters.some((k) => k.counter === counter && k.observed !== undefined && k.status !== 'not checkable'));
        const read = readIn.map((w) => w.work.counters.find((k) => k.counter === counter)!);
        if (read.length === 0) continue;
        // The windows that read it: their answers, not every window's.
        const readAnswers = sum(readIn.map((w) => sum(Object.values(w.answers))));
        const bounded = read.every((k) => k.max !== undefined);
        rows.push({
          api: doc.api,
          runId: doc.runId,
          implementation: docLabel(doc),
          case: c.id,
          answers,
          counter,
          perAnswer: sum(read.map((k) => k.observed!)) / readAnswers,
          modelMin: sum(read.map((k) => k.min ?? 0)) / readAnswers,
          ...(bounded ? { modelMax: sum(read.map((k) => k.max!)) / readAnswers } : {}),
          windows: read.length,
          missing: read.filter((k) => k.status === 'missing').length,
          excess: read.filter((k) => k.status === 'excess').length,
        });
      }
    }
  return rows;
}

const figure = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** The rows as a Markdown table. */
export function workPerAnswerMarkdown(rows: readonly WorkPerAnswerRow[]): string {
  const lines = [
    '| API | run | implementation | case (answers) | counter | per answer | model per answer | windows (missing, excess) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const answered = Object.entries(r.answers)
      .map(([type, n]) => `${type} ${n}`)
      .join(', ');
    const model =
      r.modelMax === undefined
        ? `≥ ${figure(r.modelMin)}`
        : r.modelMax === r.modelMin
          ? `= ${figure(r.modelMin)}`
          : `${figure(r.modelMin)}–${figure(r.modelMax)}`;
    const flags = r.missing || r.excess ? ` (${r.missing} missing, ${r.excess} excess)` : '';
    lines.push(
      `| ${r.api} | ${r.runId} | ${r.implementation} | ${r.case} (${answered}) | ${r.counter} | ${figure(r.perAnswer)} | ${model} | ${r.windows}${flags} |`,
    );
  }
  return lines.join('\n');
}
