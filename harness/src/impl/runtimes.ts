// The runtimes an implementation can run on, declared once: the manifest's type and its
// schema's allowed names (manifest.ts) and the command that reports each one's version
// (runtime-version.ts) come from here. A new runtime is a line here and its image role.
export const RUNTIMES = {
  node: { versionCommand: ['node', '--version'] },
  bun: { versionCommand: ['bun', '--version'] },
  java: { versionCommand: ['java', '-version'] }, // prints to stderr
  // Not `dotnet --version`: that is the SDK's version (10.0.401), not the runtime's the app runs on.
  dotnet: { versionCommand: ['dotnet', '--list-runtimes'] },
} as const satisfies Record<string, { readonly versionCommand: readonly [string, ...string[]] }>;

export type RuntimeName = keyof typeof RUNTIMES;

export const RUNTIME_NAMES = Object.keys(RUNTIMES) as RuntimeName[];
