// make checklist's steps, one entry per step of docs/adding-an-implementation.md (its `§`),
// in the guide's order: what is checked (a kind of check with its data) and the command that
// does the step. Paths are relative to the repository root, with {impl} and {api} filled in; a
// `*` matches within the last part of a path. A step `per` API is listed once for each API the
// manifest names (`pact`: those with a pact, `resilience`: those with resilience requests).

export type Per = 'impl' | 'api' | 'pact' | 'resilience';

/** A lock file the project's tool writes, and where in it the project's own dependencies are copied. */
export interface LockFile {
  readonly file: string;
  /** The keys leading to the copy of package.json's dependency lists (npm: packages."", bun: workspaces.""). */
  readonly root: readonly string[];
  readonly command: string;
}

export interface ProjectKind {
  /** The project file that marks the kind (the first that exists decides). */
  readonly project: string;
  /** Its lock files, the first that exists checked; none: the project file pins the versions itself. */
  readonly locks: readonly LockFile[];
  /** Why no lock file is needed, for a kind with none. */
  readonly unlocked?: string;
}

export type Check =
  | { readonly kind: 'manifest' }
  | { readonly kind: 'field'; readonly field: 'tuning' | 'resilience' | 'test' }
  | { readonly kind: 'file'; readonly anyOf: readonly string[] }
  | { readonly kind: 'lock'; readonly projects: readonly ProjectKind[] }
  | { readonly kind: 'mentions'; readonly file: string; readonly pattern: string }
  | { readonly kind: 'image-roles'; readonly file: string }
  | { readonly kind: 'conformance'; readonly verdict: string }
  | { readonly kind: 'containers'; readonly verdicts: string }
  | { readonly kind: 'pact'; readonly verdict: string }
  | { readonly kind: 'resilience'; readonly verdict: string }
  /** `failed`: a pattern of Schemathesis's closing line ("No issues found in 3.43s", "1 warning in …", "2 failures in …"). */
  | { readonly kind: 'fuzz'; readonly logs: string; readonly failed: string }
  | { readonly kind: 'readme-row'; readonly readme: string; readonly matrix: string }
  | { readonly kind: 'bench'; readonly results: string };

export interface Step {
  /** Stable name, also what the test asserts on. */
  readonly id: string;
  /** The guide's section. */
  readonly section: string;
  readonly title: string;
  readonly per: Per;
  readonly check: Check;
  readonly command: string;
}

const NODE_PATH = 'PATH=$PWD/../../.cache/node/node_modules/node/bin:$PATH';

export const STEPS: readonly Step[] = [
  {
    id: 'manifest',
    section: '1',
    title: 'impl.yaml, valid against its schema',
    per: 'impl',
    check: { kind: 'manifest' },
    command: 'write impl/{impl}/impl.yaml; make lint',
  },
  {
    id: 'manifest-resilience',
    section: '1',
    title: "the manifest's resilience block",
    per: 'impl',
    check: { kind: 'field', field: 'resilience' },
    command: 'add resilience: { stallBoundMs, shutdownBoundMs, how } to impl/{impl}/impl.yaml (docs/resilience.md)',
  },
  {
    id: 'manifest-tuning',
    section: '1',
    title: "the manifest's tuning text",
    per: 'impl',
    check: { kind: 'field', field: 'tuning' },
    command: 'say in tuning: every deviation from the framework defaults (or "none")',
  },
  {
    id: 'project',
    section: '2',
    title: 'its own project file',
    per: 'impl',
    check: { kind: 'file', anyOf: ['impl/{impl}/package.json', 'impl/{impl}/pom.xml', 'impl/{impl}/*.csproj', 'impl/{impl}/src/*.csproj'] },
    command: 'write impl/{impl}/package.json (or pom.xml, a .csproj) with exact versions',
  },
  {
    id: 'lock',
    section: '2',
    title: 'the lock file, matching the project file',
    per: 'impl',
    check: {
      kind: 'lock',
      projects: [
        {
          project: 'package.json',
          locks: [
            { file: 'package-lock.json', root: ['packages', ''], command: `cd impl/{impl} && ${NODE_PATH} npm install` },
            { file: 'bun.lock', root: ['workspaces', ''], command: 'cd impl/{impl} && bun install' },
          ],
        },
        { project: 'pom.xml', locks: [], unlocked: 'Maven writes no lock file; pom.xml pins exact versions' },
        { project: '*.csproj', locks: [], unlocked: 'NuGet writes no lock file unless asked; the .csproj pins exact versions' },
        { project: 'src/*.csproj', locks: [], unlocked: 'NuGet writes no lock file unless asked; the .csproj pins exact versions' },
      ],
    },
    command: `cd impl/{impl} && ${NODE_PATH} npm install`,
  },
  {
    id: 'dockerignore',
    section: '2',
    title: '.dockerignore',
    per: 'impl',
    check: { kind: 'file', anyOf: ['impl/{impl}/.dockerignore'] },
    command: 'cp impl/express/.dockerignore impl/{impl}/',
  },
  {
    id: 'dockerfile',
    section: '3',
    title: "the manifest's Dockerfile",
    per: 'impl',
    check: { kind: 'file', anyOf: ['impl/{impl}/{dockerfile}'] },
    command: 'write impl/{impl}/Dockerfile (ARG BASE_IMAGE, FROM ${BASE_IMAGE}, CMD = start)',
  },
  {
    id: 'image-roles',
    section: '3',
    title: 'its base images declared in images/images.yaml',
    per: 'impl',
    check: { kind: 'image-roles', file: 'images/images.yaml' },
    command: 'make images',
  },
  {
    id: 'unit-tests',
    section: '9',
    title: "its own unit tests (the manifest's test)",
    per: 'impl',
    check: { kind: 'field', field: 'test' },
    command: 'node harness/src/cli/impl-tests.ts --impl {impl}',
  },
  {
    id: 'conformance',
    section: '10',
    title: 'conformance',
    per: 'api',
    check: { kind: 'conformance', verdict: 'results/conformance/{impl}/{api}.json' },
    command: 'make conformance IMPL={impl} API={api} RUNTIME=local',
  },
  {
    id: 'containers',
    section: '10',
    title: 'conformance in containers (its image built and run)',
    per: 'impl',
    check: { kind: 'containers', verdicts: 'results/conformance/{impl}/*.json' },
    command: 'make images && make conformance IMPL={impl} RUNTIME=containers',
  },
  {
    id: 'defects',
    section: '11',
    title: 'planted defects',
    per: 'api',
    check: { kind: 'file', anyOf: ['apis/{api}/conformance/mutants/{impl}.yaml'] },
    command: 'write apis/{api}/conformance/mutants/{impl}.yaml; make mutants IMPL={impl} API={api}',
  },
  {
    id: 'pact',
    section: '11b',
    title: 'pact verification',
    per: 'pact',
    check: { kind: 'pact', verdict: 'results/pact/{impl}/{api}.json' },
    command: 'make pact IMPL={impl} API={api}',
  },
  {
    id: 'pact-defects',
    section: '11b',
    title: 'pact planted defect',
    per: 'pact',
    check: { kind: 'file', anyOf: ['apis/{api}/pact/mutants/{impl}.yaml'] },
    command: 'write apis/{api}/pact/mutants/{impl}.yaml; make pact-mutants IMPL={impl} API={api} CONFORMANCE=1',
  },
  {
    id: 'resilience',
    section: '11c',
    title: 'resilience',
    per: 'resilience',
    check: { kind: 'resilience', verdict: 'results/conformance/{impl}/{api}.resilience.json' },
    command: 'make resilience IMPL={impl} API={api}',
  },
  {
    id: 'resilience-defects',
    section: '11c',
    title: 'resilience planted defect',
    per: 'resilience',
    check: { kind: 'file', anyOf: ['apis/{api}/resilience/mutants/{impl}.yaml'] },
    command: 'write apis/{api}/resilience/mutants/{impl}.yaml; make resilience IMPL={impl} API={api} MUTANTS=1',
  },
  {
    id: 'readme',
    section: '12',
    title: 'its README',
    per: 'impl',
    check: { kind: 'file', anyOf: ['impl/{impl}/README.md'] },
    command: 'write impl/{impl}/README.md',
  },
  {
    id: 'docs-layout',
    section: '12',
    title: 'listed in docs/layout.md',
    per: 'impl',
    check: { kind: 'mentions', file: 'docs/layout.md', pattern: '^ {2}{impl}/ ' },
    command: 'add a line for {impl}/ under impl/ in docs/layout.md (framework, drivers)',
  },
  {
    id: 'docs-status',
    section: '12',
    title: 'listed in docs/status.md',
    per: 'impl',
    // The APIs × implementations table's third column, "served by".
    check: { kind: 'mentions', file: 'docs/status.md', pattern: '^\\|[^|\\n]*\\|[^|\\n]*\\|[^|\\n]*\\b{impl}\\b' },
    command: 'add {impl} to the served-by column of docs/status.md',
  },
  {
    id: 'readme-row',
    section: '12',
    title: "the README's compliance matrix row",
    per: 'impl',
    check: { kind: 'readme-row', readme: 'README.md', matrix: 'results/conformance/matrix.md' },
    command: 'make readme',
  },
  {
    id: 'fuzz',
    section: '13',
    title: 'fuzzing',
    per: 'api',
    check: { kind: 'fuzz', logs: 'results/fuzz/{impl}/{api}-*.log', failed: '\\b\\d+ (failures?|errors?)\\b' },
    command: 'make fuzz IMPL={impl} API={api}',
  },
  {
    id: 'bench',
    section: '15',
    title: 'a benchmark run',
    per: 'api',
    check: { kind: 'bench', results: 'results/bench/{api}/{impl}/*.json' },
    command: 'make bench IMPL={impl} API={api} QUICK=1',
  },
];
