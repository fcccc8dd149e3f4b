// The options a user gave a command, read from the option table (option-table.ts): each
// row's flag, or else its Make variable in the environment (make passes the variables given
// on its command line to the recipe that way), converted by the row's kind and checked
// against its range. Absent or empty: not requested, so the profile's or the row's default
// applies (options.ts).
import { listArg, notAccepted, numberArg, parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
import { type OPTION_TABLE, rowsOf, type Entry, type OptionKind, type OptionRow } from './option-table.ts';

type ValueOf<K extends OptionKind> = K extends 'list' ? string[] : K extends 'integer' | 'number' ? number : K extends 'zero-one' | 'yes' ? boolean : string;
type Row = (typeof OPTION_TABLE)[number];

/** What was given, by option name; an option not given is absent. */
export type Requested = { -readonly [R in Row as R['name']]?: ValueOf<R['kind']> };

/** The name a usage line gives an option: its Make variable, else its flag. */
const shown = (row: OptionRow): string => row.make ?? `--${row.flag}`;

function convert(row: OptionRow, raw: string): string | string[] | number | boolean | undefined {
  switch (row.kind) {
    case 'text':
      if (row.choices && !row.choices.includes(raw)) throw notAccepted(shown(row), raw, row.choices);
      return raw;
    case 'list':
      return listArg(raw);
    case 'integer':
    case 'number': {
      const n = numberArg(shown(row), raw, NaN, row.min ?? -Infinity, row.max ?? Infinity);
      if (row.kind === 'integer' && !Number.isInteger(n)) throw new UsageError(`${shown(row)} must be a whole number, got '${raw}'`);
      return n;
    }
    case 'zero-one':
      if (raw !== '0' && raw !== '1') throw notAccepted(shown(row), raw, ['0', '1']);
      return raw === '1';
    case 'yes':
      return ['1', 'true', 'yes'].includes(raw.toLowerCase());
  }
}

/**
 * The options given to `entry`: its flags (`argv`, default the process's), else the Make
 * variables in `env`. A flag the command does not take is a usage error naming those it does.
 */
export function readRequested(entry: Entry, argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Requested {
  const rows = rowsOf(entry);
  // A yes-or-no option is a bare flag (--quick); every other takes a value.
  const options = Object.fromEntries(rows.map((row) => [row.flag, { type: row.kind === 'yes' ? ('boolean' as const) : ('string' as const) }]));
  const { values } = parseCli({ args: [...argv], options });
  const requested: Record<string, unknown> = {};
  for (const row of rows) {
    const flag = (values as Record<string, string | boolean | undefined>)[row.flag];
    const raw = flag === true ? '1' : flag === false ? undefined : (flag ?? (row.make ? env[row.make] : undefined));
    if (raw === undefined || raw.trim() === '') continue;
    const value = convert(row, raw.trim());
    if (value !== undefined) requested[row.name] = value;
  }
  return requested as Requested;
}
