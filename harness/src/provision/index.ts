// Picks where databases run: FAIRBENCH_RUNTIME=local (default) or containers.
import { localProvider } from './local/index.ts';
import type { DatabaseProvider } from './types.ts';

export type {
  DatabaseKind,
  DatabaseProvider,
  DatabaseServer,
  RuntimeProviderName,
  StartDatabaseOptions,
} from './types.ts';
export { DEFAULT_DATABASE } from './types.ts';

export function chooseProvider(): DatabaseProvider {
  const runtime = process.env.FAIRBENCH_RUNTIME ?? 'local';
  switch (runtime) {
    case '':
    case 'local':
      return localProvider;
    case 'containers':
      throw new Error('containers runtime not implemented yet');
    default:
      throw new Error(`unknown FAIRBENCH_RUNTIME '${runtime}' (expected 'local' or 'containers')`);
  }
}
