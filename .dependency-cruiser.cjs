// The harness's layering, checked by `make lint` (dependency-cruiser; docs/layout.md): no
// import circles among runtime files; nothing below the API plug-ins imports an API folder;
// harness, the bottom, imports none of the workspaces above it; conformance imports neither
// pact nor bench (they run it); bench/src by stage, with bench/src/stats on its own; the
// plug-ins take the benchmark's kit through its one façade, bench/src/plugin.ts. Tests and
// their fixtures may import anything. The cap on a folder's files and the declared workspace
// dependencies are checked by harness/src/cli/lint-layout.ts, also in `make lint`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-runtime-circle',
      severity: 'error',
      comment: 'A runtime import circle: files that import each other in a loop (an `import type` ties none; `import { type X }` does, under verbatimModuleSyntax).',
      from: { pathNot: '(^|/)test/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'nothing-below-imports-apis',
      severity: 'error',
      comment: 'bench, conformance, pact and harness find the APIs as folders (apis/<name>/api.yaml) and never import one; tests may.',
      from: { path: '^(bench|conformance|pact|harness)/', pathNot: '(^|/)test/' },
      to: { path: '^apis/' },
    },
    {
      name: 'harness-imports-nothing-above',
      severity: 'error',
      comment: 'The harness is the bottom layer (paths, processes, databases, manifests): it imports none of bench, conformance, pact or apis; what they share moves down into it.',
      from: { path: '^harness/', pathNot: '(^|/)test/' },
      to: { path: '^(bench|conformance|pact|apis)/' },
    },
    {
      name: 'conformance-below-pact-and-bench',
      severity: 'error',
      comment: 'The suite stands under the contracts and the benchmark (both run it): it imports neither.',
      from: { path: '^conformance/', pathNot: '(^|/)test/' },
      to: { path: '^(pact|bench)/' },
    },
    {
      name: 'bench-stats-self-contained',
      severity: 'error',
      comment: 'The statistics are plain arithmetic on numbers: bench/src/stats imports nothing else of bench (its own files and packages only).',
      from: { path: '^bench/src/stats/', pathNot: '(^|/)test/' },
      to: { path: '^bench/', pathNot: '^bench/(src/stats|node_modules)/' },
    },
    {
      name: 'bench-stages-downward',
      severity: 'error',
      comment: 'bench/src by stage, each importing only those below it: execute > plan > load > record (bench/README.md#layout).',
      from: { path: '^bench/src/(record|load|plan)/' },
      to: { path: '^bench/src/(execute|report|k6-operator|cli)/|^bench/src/run\\.ts$' },
    },
    {
      name: 'bench-record-and-load-below-plan',
      severity: 'error',
      comment: 'The record (the documents) and the load (k6, wrk, the baseline clients) know nothing of the plan; the record nothing of the load.',
      from: { path: '^bench/src/(record|load)/' },
      to: { path: '^bench/src/plan/' },
    },
    {
      name: 'bench-record-below-load',
      severity: 'error',
      comment: 'The result documents are the vocabulary every stage shares: they import no stage.',
      from: { path: '^bench/src/record/' },
      to: { path: '^bench/src/load/' },
    },
    {
      name: 'apis-through-the-bench-facade',
      severity: 'error',
      comment: "An API plug-in takes the benchmark's kit from bench/src/plugin.ts alone (its tests may reach further).",
      from: { path: '^apis/', pathNot: '(^|/)test/' },
      to: { path: '^bench/src/', pathNot: '^bench/src/plugin\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.cache|impl)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
