// The MongoDB APIs' native tier: apis/mongodb-common/mongo-native (Go, the official driver, built by
// make setup into .cache/bin) run as this baseline process's child, so the runner's /proc
// sampling counts its CPU as the client's. It reads the config and writes the kit's output
// itself:  node mongo-native.ts <config.json> <out.json>
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binDir } from '@fairbench/harness/paths.ts';
import { runNative } from '@fairbench/bench/plugin.ts';

/** The client file an API's module hands startBaselineClient for its native cases. */
export const MONGO_NATIVE_CLIENT: string = fileURLToPath(import.meta.url);

/** apis/mongodb-common/mongo-native's config (its main.go Config). */
export interface MongoNativeConfig {
  readonly url: string;
  readonly pool: number;
  readonly collection: string;
  readonly mode: 'arrivals' | 'sequential' | 'closed';
  readonly warmupSeconds: number;
  /** The API's operation names in flow order (mongo-native knows each one's query). */
  readonly flow: readonly string[];
  readonly users?: number;
  readonly seconds?: number;
  readonly drainSeconds?: number;
  readonly requests?: number;
  readonly concurrency?: number;
  readonly durationSeconds?: number;
  /** Documents to insert, in turn (plain JSON). */
  readonly bodies?: readonly unknown[];
  readonly prefix?: string;
}

async function main(): Promise<void> {
  const [config, out] = process.argv.slice(2);
  if (!config || !out) throw new Error('usage: node mongo-native.ts <config.json> <out.json>');
  await runNative(join(binDir, 'mongo-native'), [config, out]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
