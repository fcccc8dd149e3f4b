// Every option of make bench and make k6-operator, declared once. From this table come the
// command lines' parsing (requested.ts: a flag, or else the Make variable, which make passes
// to the recipe as an environment variable — the Makefile names none), the resolution with
// the profile's defaults (options.ts), `make help`'s list and the options page of the docs
// (cli/options.ts). An option has three stages with three names: requested (what the user
// gave, `Requested`), resolved (with the profile's defaults, `ResolvedOptions`), recorded
// (what every result document states, `RecordedOptions`).

/** How a value is read: text; a comma-separated list; a number (whole or not); 0|1; a flag that is on for 1, true or yes. */
export type OptionKind = 'text' | 'list' | 'integer' | 'number' | 'zero-one' | 'yes';

/** The commands that take options from the table. */
export type Entry = 'bench' | 'k6-operator';

export interface OptionRow {
  /** The requested option's name (and, where the profile has it, its path in the profile and the resolved options). */
  readonly name: string;
  /** The Make variable, also read from the environment; absent: a flag only. */
  readonly make?: string;
  /** The command line's flag, without its dashes. */
  readonly flag: string;
  readonly kind: OptionKind;
  readonly min?: number;
  readonly max?: number;
  /** The values a text option accepts; absent: any. */
  readonly choices?: readonly string[];
  /** Where the profile gives its default (bench/profiles.yaml), a path in the profile and in the resolved options. */
  readonly profile?: string;
  /** The default when the profile has none. */
  readonly default?: string | number | boolean;
  /** Where a result document records it (bench/results.schema.json), or why it is not recorded. */
  readonly recorded: string;
  readonly entries: readonly Entry[];
  /** One line for `make help` and the options page. */
  readonly help: string;
}

export const OPTION_TABLE = [
  {
    name: 'impls',
    make: 'IMPL',
    flag: 'impl',
    kind: 'list',
    recorded: 'implementation.name; options.implementations when several',
    entries: ['bench'],
    help: 'the implementation(s): express, or express,hapi side by side; express,express an A/A calibration run; express@bun a runtime variant (impl.yaml variants); express:main the folder at a git revision (express:main,express: a change against the code before it); express~5.2.1 its framework package at another version (bench/docs/revisions.md)',
  },
  {
    name: 'apis',
    make: 'API',
    flag: 'api',
    kind: 'list',
    recorded: 'api',
    entries: ['bench', 'k6-operator'],
    help: 'the API(s) (default for make bench: every API the implementations all serve; make k6-operator: one)',
  },
  {
    name: 'profile',
    make: 'PROFILE',
    flag: 'profile',
    kind: 'text',
    recorded: 'options.profile',
    entries: ['bench', 'k6-operator'],
    help: "a profile of bench/profiles.yaml: its repetitions, window, warm-ups and cases (absent: the file's default)",
  },
  {
    name: 'quick',
    make: 'QUICK',
    flag: 'quick',
    kind: 'yes',
    recorded: 'options.quick',
    entries: ['bench', 'k6-operator'],
    help: 'QUICK=1 is PROFILE=quick: a smoke run whose numbers mean nothing',
  },
  {
    name: 'repeat',
    make: 'REPEAT',
    flag: 'repeat',
    kind: 'integer',
    min: 1,
    profile: 'repeat',
    recorded: 'options.repeat',
    entries: ['bench'],
    help: 'repetitions per case and implementation, spread over the process pairs (switched slices: the database-alone cases only)',
  },
  {
    name: 'durationSeconds',
    make: 'DURATION',
    flag: 'duration',
    kind: 'number',
    min: 1,
    profile: 'durationSeconds',
    recorded: 'options.durationSeconds',
    entries: ['bench', 'k6-operator'],
    help: 'seconds measured per repetition',
  },
  {
    name: 'warmupSeconds',
    make: 'WARMUP',
    flag: 'warmup',
    kind: 'number',
    min: 0,
    profile: 'warmupSeconds',
    recorded: 'options.warmupSeconds',
    entries: ['bench', 'k6-operator'],
    help: "seconds of load before each measured window (make k6-operator: the case's first load's, as make bench runs it)",
  },
  {
    name: 'firstWarmupSeconds',
    make: 'FIRST_WARMUP',
    flag: 'first-warmup',
    kind: 'number',
    min: 0,
    profile: 'firstWarmupSeconds',
    recorded: 'options.firstWarmupSeconds (when longer than warmupSeconds)',
    entries: ['bench'],
    help: "the warm-up of a served case's first load, from cold (a fresh process's JIT)",
  },
  {
    name: 'warmupIterations',
    make: 'WARMUP_ITERATIONS',
    flag: 'warmup-iterations',
    kind: 'integer',
    min: 0,
    profile: 'warmupIterations.max',
    recorded: 'options.warmupIterations.max (when above 0)',
    entries: ['bench'],
    help: 'at most this many unrecorded warm-up iterations per case until the rate is steady: 0 (none) or at least 2',
  },
  {
    name: 'processPairs',
    make: 'PROCESS_PAIRS',
    flag: 'process-pairs',
    kind: 'integer',
    min: 1,
    profile: 'processPairs',
    recorded: 'options.processPairs (when above 1); each repetition its process',
    entries: ['bench'],
    help: "where implementations are compared: starts of them per served case, each warmed and measured in turn, the repetitions spread over them (a comparison's unit is the pair of processes)",
  },
  {
    name: 'limits',
    make: 'LIMITS',
    flag: 'limits',
    kind: 'zero-one',
    profile: 'limits',
    recorded: 'options.limits (when 0)',
    entries: ['bench'],
    help: "LIMITS=0 leaves out the database-alone cases (the limit): a run that compares implementations only (make papers' users run: no claim reads the limit)",
  },
  {
    name: 'protocols',
    make: 'PROTOCOL',
    flag: 'protocol',
    kind: 'list',
    recorded: 'options.protocols',
    entries: ['bench', 'k6-operator'],
    help: 'rest, graphql, … (the API scenario’s protocols; default: all)',
  },
  {
    name: 'cases',
    make: 'CASES',
    flag: 'cases',
    kind: 'text',
    recorded: 'options.cases',
    entries: ['bench', 'k6-operator'],
    help: "case ids as globs or anchored regular expressions, comma-separated (e.g. 'rest/closed/c100-*'); default: the profile's",
  },
  {
    name: 'models',
    make: 'MODEL',
    flag: 'model',
    kind: 'list',
    recorded: 'options.models',
    entries: ['bench', 'k6-operator'],
    help: 'closed, open, arrivals, sequential (default: the scenario’s default models)',
  },
  {
    name: 'pin',
    make: 'PIN',
    flag: 'pin',
    kind: 'zero-one',
    default: true,
    recorded: 'machine.placement',
    entries: ['bench'],
    help: 'PIN=0 leaves the processes unpinned (default: the implementation and the database on one core, k6 on the other)',
  },
  {
    name: 'seed',
    make: 'SEED',
    flag: 'seed',
    kind: 'integer',
    min: 0,
    default: 1,
    recorded: 'options.seed',
    entries: ['bench', 'k6-operator'],
    help: "the k6 scripts' random seed",
  },
  {
    name: 'crossCheck',
    make: 'CROSSCHECK',
    flag: 'crosscheck',
    kind: 'text',
    choices: ['wrk'],
    recorded: 'cases[].crossCheck',
    entries: ['bench'],
    help: "CROSSCHECK=wrk: after a closed-model case's repetitions, wrk against the same server, to tell whether k6 was the limit",
  },
  {
    name: 'resume',
    make: 'RESUME',
    flag: 'resume',
    kind: 'text',
    recorded: 'resumedAt (the run keeps its runId)',
    entries: ['bench'],
    help: 'continue the stopped run of this id, every API of it, with the same options',
  },
  {
    name: 'topology',
    make: 'TOPOLOGY',
    flag: 'topology',
    kind: 'text',
    recorded: 'machine.topology',
    entries: ['bench'],
    help: 'a topology file: the database, the implementation and the load generators on hosts of their own (docs/several-machines.md)',
  },
  {
    name: 'baseUrl',
    make: 'BASE_URL',
    flag: 'base-url',
    kind: 'text',
    recorded: 'not recorded: the TestRun carries it',
    entries: ['k6-operator'],
    help: "the implementation's URL as the cluster's runners reach it",
  },
  {
    name: 'parallelism',
    make: 'PARALLELISM',
    flag: 'parallelism',
    kind: 'integer',
    min: 1,
    max: 1000,
    recorded: 'not recorded: the TestRun carries it',
    entries: ['k6-operator'],
    help: 'the number of k6 runners sharing each case',
  },
  {
    name: 'namespace',
    make: 'NAMESPACE',
    flag: 'namespace',
    kind: 'text',
    default: 'default',
    recorded: 'not recorded: the TestRun carries it',
    entries: ['k6-operator'],
    help: "the cluster's namespace for the TestRuns",
  },
  {
    name: 'resultsClaim',
    make: 'RESULTS_CLAIM',
    flag: 'results-claim',
    kind: 'text',
    default: 'fairbench-results',
    recorded: 'not recorded: the TestRun carries it',
    entries: ['k6-operator'],
    help: 'the PersistentVolumeClaim the runners write their summaries and samples to',
  },
  {
    name: 'separate',
    make: 'SEPARATE',
    flag: 'separate',
    kind: 'zero-one',
    default: true,
    recorded: 'not recorded: the TestRun carries it',
    entries: ['k6-operator'],
    help: 'SEPARATE=0 lets two runners share a node (default: one per node)',
  },
  {
    name: 'out',
    flag: 'out',
    kind: 'text',
    recorded: 'not recorded: where the TestRuns are written',
    entries: ['k6-operator'],
    help: 'the folder for the TestRuns (default: results/k6-operator/<api>/<runId>/)',
  },
] as const satisfies readonly OptionRow[];

export type OptionName = (typeof OPTION_TABLE)[number]['name'];

/** The rows a command takes, in the table's order. */
export const rowsOf = (entry: Entry): readonly OptionRow[] => OPTION_TABLE.filter((row: OptionRow) => row.entries.includes(entry));

/** A row's default (the table's `default`), for a value an older document may lack. */
export function defaultOf(name: OptionName): string | number | boolean | undefined {
  const row: OptionRow = OPTION_TABLE.find((r) => r.name === name)!;
  return row.default;
}

/** The value at a dotted path of a profile or of resolved options ("warmupIterations.max"). */
export const valueAt = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], o);
