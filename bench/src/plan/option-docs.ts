// The option table as people read it: `make help`'s lines and the options page's table
// (bench/docs/options.md), each default as the profiles file gives it. Generated, so
// that neither can fall behind the table.
import { loadProfiles } from './profiles.ts';
import { OPTION_TABLE, valueAt, type Entry, type OptionRow } from './option-table.ts';

/** The Markdown file whose `options` block is the table. */
export const OPTIONS_PAGE = 'bench/docs/options.md';

/** A value as its Make variable takes it: a yes-or-no as 1 or 0. */
const shown = (v: unknown): string => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

/** The default as a person reads it: each profile's value, the table's, or none. */
async function defaultText(row: OptionRow): Promise<string> {
  if (row.profile) {
    const { profiles } = await loadProfiles();
    return Object.entries(profiles)
      .map(([name, p]) => `${name} ${shown(valueAt(p, row.profile!))}`)
      .join(', ');
  }
  return row.default === undefined ? '' : shown(row.default);
}

const commands = (row: OptionRow): string => row.entries.map((e: Entry) => `make ${e}`).join(', ');

/** `make help`'s lines: one per option, its Make variable (or flag) and its help. */
export function helpLines(): string[] {
  const rows: readonly OptionRow[] = OPTION_TABLE;
  const width = Math.max(...rows.map((r) => (r.make ?? `--${r.flag}`).length));
  return rows.map((r) => `  ${(r.make ?? `--${r.flag}`).padEnd(width)}  ${r.help} [${commands(r)}]`);
}

/** The options page's table. */
export async function optionsMarkdown(): Promise<string> {
  const rows: readonly OptionRow[] = OPTION_TABLE;
  const lines = ['| Make variable | flag | commands | default | recorded as | meaning |', '| --- | --- | --- | --- | --- | --- |'];
  for (const r of rows)
    lines.push(`| ${r.make ? `\`${r.make}\`` : ''} | \`--${r.flag}\` | ${commands(r)} | ${await defaultText(r)} | ${r.recorded} | ${r.help} |`);
  return lines.join('\n');
}
