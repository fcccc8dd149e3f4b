// Picks where databases (and so the implementations under test) run: in containers when a
// container runtime works here, else as local processes. FAIRBENCH_RUNTIME=local|containers
// overrides; a caller may make local its default (the benchmark: local is the natural choice
// for measurements on one small machine, DESIGN.md).
import { probeEngine, probeRun } from '../containers/engine.ts';
import { imageRef, imageSource, localImageExistsSync } from '../containers/images.ts';
import { containersProvider } from './containers/index.ts';
import { localProvider } from './local/index.ts';
import type { DatabaseProvider, RuntimeProviderName } from './types.ts';
import { notAccepted } from '../cli/usage.ts';

export type { DatabaseKind, DatabaseProvider, DatabaseServer, RuntimeProviderName, StartDatabaseOptions } from './types.ts';
export { DEFAULT_DATABASE } from './types.ts';

export interface ChooseProviderOptions {
  /** Without FAIRBENCH_RUNTIME: 'auto' (default) takes containers when a runtime works, 'local' always local. */
  readonly default?: 'auto' | 'local';
  /** Print the choice and its reason (default true; once per process and choice). */
  readonly quiet?: boolean;
}

export interface ProviderChoice {
  readonly provider: DatabaseProvider;
  /** Why this runtime: recorded with every verdict. */
  readonly reason: string;
}

/** The images the containers provider starts: checked before choosing it automatically. */
export const DATABASE_IMAGES = ['mariadb', 'postgresql', 'ferretdb'];

export function chooseProvider(opts: ChooseProviderOptions = {}): DatabaseProvider {
  return chooseRuntime(opts).provider;
}

/** The runtime the user asked for (RUNTIME=… / FAIRBENCH_RUNTIME), or undefined when the command chooses. */
export function requestedRuntime(): RuntimeProviderName | undefined {
  const runtime = process.env['FAIRBENCH_RUNTIME'];
  return runtime === 'local' || runtime === 'containers' ? runtime : undefined;
}

const printed = new Set<string>();

export function chooseRuntime(opts: ChooseProviderOptions = {}): ProviderChoice {
  const choice = decide(opts);
  const line = `runtime: ${choice.provider.name} (${choice.reason})`;
  if (!opts.quiet && !printed.has(line)) {
    printed.add(line);
    // A fallback from containers to local is worth a loud line: the run is not what was hoped for.
    console.log(choice.provider.name === 'local' && /cannot|failed|not|no /.test(choice.reason) ? `\x1b[33m!! ${line}\x1b[0m` : line);
  }
  return choice;
}

function decide(opts: ChooseProviderOptions): ProviderChoice {
  const runtime = process.env['FAIRBENCH_RUNTIME'] ?? '';
  switch (runtime) {
    case 'local':
      return { provider: localProvider, reason: 'FAIRBENCH_RUNTIME=local' };
    case 'containers':
      return { provider: containersProvider, reason: `FAIRBENCH_RUNTIME=containers, ${imageSource()} images` };
    case '':
      if (opts.default === 'local') return { provider: localProvider, reason: 'the default for this command; FAIRBENCH_RUNTIME=containers to change it' };
      return autoChoice();
    default:
      throw notAccepted('RUNTIME (FAIRBENCH_RUNTIME)', runtime, ['local', 'containers']);
  }
}

let auto: ProviderChoice | undefined;

/** Containers when an engine answers, the images are there and a container really runs; each step bounded. */
function autoChoice(): ProviderChoice {
  if (auto) return auto;
  const fallback = (why: string): ProviderChoice => ({ provider: localProvider, reason: `containers cannot run here: ${why}` });
  const engine = probeEngine();
  if (!engine.ok) return (auto = fallback(engine.reason));
  if (engine.kind === 'podman') {
    if (imageSource() === 'local') {
      const missing = DATABASE_IMAGES.filter((name) => !localImageExistsSync(imageRef(name)));
      if (missing.length > 0) return (auto = fallback(`images not built: ${missing.join(', ')} (make images)`));
    }
    const run = probeRun(imageRef(DATABASE_IMAGES[0]!));
    if (!run.ok) return (auto = fallback(run.reason));
  }
  return (auto = { provider: containersProvider, reason: `${engine.detail} works, ${imageSource()} images` });
}

/** For tests: the runtime the automatic choice would take, without printing. */
export function autoRuntime(): RuntimeProviderName {
  return autoChoice().provider.name;
}
