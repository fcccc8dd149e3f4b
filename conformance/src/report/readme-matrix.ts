// The README's compliance matrix, renewed from the verdicts on disk without losing what they
// cannot renew: a clone that ran only some implementations (or APIs) has no verdict for the
// others, so each cell the verdicts leave empty keeps the README's previous text, and the
// previous verdicts' dates stay in the span the block states.

/** A matrix as Markdown shows it: its columns (after `implementation`) and each row's cells by column. */
export interface MatrixTable {
  readonly columns: readonly string[];
  readonly rows: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** The text of a cell with no verdict (matrix.ts's cellText). */
export const NO_VERDICT = '—';

/** A table row's cells, split at the bars that are not escaped (`\|` stays inside a cell). */
const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** The first Markdown table in `text` (the matrix), or an empty one when there is none. */
export function parseMatrixTable(text: string): MatrixTable {
  const lines = text.split('\n').filter((l) => l.trim().startsWith('|'));
  const [header, , ...body] = lines;
  if (header === undefined) return { columns: [], rows: new Map() };
  const columns = cellsOf(header).slice(1);
  const rows = new Map<string, Map<string, string>>();
  for (const line of body) {
    const [impl, ...cells] = cellsOf(line);
    if (impl === undefined || impl === '') continue;
    rows.set(impl, new Map(columns.map((c, i) => [c, cells[i] ?? NO_VERDICT])));
  }
  return { columns, rows };
}

/** Column order as matrix.ts writes it: by API, its resilience column right after it. */
function columnOrder(a: string, b: string): number {
  const RESILIENCE = ' resilience';
  const key = (c: string) => (c.endsWith(RESILIENCE) ? { api: c.slice(0, -RESILIENCE.length), rank: 1 } : { api: c, rank: 0 });
  const [ka, kb] = [key(a), key(b)];
  return ka.api < kb.api ? -1 : ka.api > kb.api ? 1 : ka.rank - kb.rank;
}

/**
 * The fresh matrix with every cell it has no verdict for taken from the previous one (rows of
 * implementations that still exist); `kept` names each implementation some of whose cells
 * came from the previous matrix.
 */
export function mergeMatrixTables(
  fresh: MatrixTable,
  previous: MatrixTable,
  exists: (impl: string) => boolean = () => true,
): { table: MatrixTable; kept: string[] } {
  const columns = [...new Set([...fresh.columns, ...previous.columns])].sort(columnOrder);
  const rows = new Map<string, Map<string, string>>();
  const kept: string[] = [];
  // A previous row of an implementation that is gone (its folder removed) is not kept.
  const previousImpls = [...previous.rows.keys()].filter(exists);
  for (const impl of [...new Set([...fresh.rows.keys(), ...previousImpls])].sort()) {
    let fromPrevious = false;
    const cells = new Map<string, string>();
    for (const column of columns) {
      const now = fresh.rows.get(impl)?.get(column) ?? NO_VERDICT;
      const before = previous.rows.get(impl)?.get(column) ?? NO_VERDICT;
      if (now === NO_VERDICT && before !== NO_VERDICT) fromPrevious = true;
      cells.set(column, now === NO_VERDICT ? before : now);
    }
    rows.set(impl, cells);
    if (fromPrevious) kept.push(impl);
  }
  return { table: { columns, rows }, kept };
}

export function tableMarkdown(table: MatrixTable): string {
  const lines = [`| implementation | ${table.columns.join(' | ')} |`, `| --- | ${table.columns.map(() => '---').join(' | ')} |`];
  for (const [impl, cells] of table.rows) lines.push(`| ${impl} | ${table.columns.map((c) => cells.get(c) ?? NO_VERDICT).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

/** The dates (YYYY-MM-DD) a previous block states its verdicts were recorded on ("recorded A" or "recorded A to B"). */
export function statedDates(block: string): string[] {
  const m = /Verdicts recorded (\d{4}-\d{2}-\d{2})(?: to (\d{4}-\d{2}-\d{2}))?/.exec(block);
  return m === null ? [] : [m[1]!, ...(m[2] !== undefined ? [m[2]] : [])];
}

/** The span of dates a block states: one date, or the first to the last. */
export function dateSpan(dates: readonly string[]): string | undefined {
  const sorted = [...dates].sort();
  if (sorted.length === 0) return undefined;
  return sorted[0] === sorted.at(-1) ? sorted[0] : `${sorted[0]} to ${sorted.at(-1)}`;
}
