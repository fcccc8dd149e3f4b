// The users and documents seeds live in @fairbench/db/<api>/ (written by their API's
// helpers, mongo-apis.md): generate.ts, load-mongo.ts, model.ts, fingerprint.ts. They are
// imported when a run needs them, and their exports found by the names the interface
// gives (PAPER_SCALE, load…, generate…, fingerprint…), so that the benchmark of one API
// does not stop the others (or make lint) while that API's seed is not there yet.
export type SeedExports = Record<string, unknown>;

export async function importSeed(api: string, module: string): Promise<SeedExports> {
  const specifier = `@fairbench/db/${api}/${module}.ts`;
  try {
    return (await import(specifier)) as SeedExports;
  } catch (error) {
    throw new Error(`the ${api} benchmark needs ${specifier} (the ${api} seed, db/src/${api}/): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

/** The exported function whose name starts with `prefix` (e.g. load → loadUsers). */
export function exportedFunction<F extends (...args: never[]) => unknown>(mod: SeedExports, prefix: string, where: string): F {
  const found = Object.entries(mod).filter(([name, value]) => name.startsWith(prefix) && typeof value === 'function');
  if (found.length !== 1) throw new Error(`${where}: expected one exported function named ${prefix}…, found ${found.map(([n]) => n).join(', ') || 'none'}`);
  return found[0]![1] as F;
}
