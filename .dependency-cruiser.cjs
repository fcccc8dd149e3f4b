// The harness's layering, checked by `make lint` (dependency-cruiser): no import circles
// among runtime files, and nothing below the API plug-ins (bench, conformance, pact,
// harness) imports an API folder; the plug-ins take the benchmark's kit through its one
// façade, bench/src/plugin.ts. Tests and their fixtures may import anything.
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
