// The one seeding path of every API: its dataset module (apis/<name>/dataset/index.ts)
// generates rows deterministically from a scale, loads them into the API's databases
// and fingerprints them. Conformance seeds the small scale, the benchmark the paper's;
// both call seed() below, and both reset by loading the same rows again.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatabaseKind, DatabaseServer } from '../provision/types.ts';
import type { Api } from './manifest.ts';

/** How much data, with the PRNG seed that makes it deterministic. */
export interface Scale {
  readonly seed: number;
}

export type ScaleName = 'conformance' | 'paper';

export interface LoadReport {
  readonly rows: Record<string, number>;
  readonly milliseconds: number;
}

export interface DatasetModule<Data, S extends Scale = Scale> {
  /** conformance: small and quick to load for every case run; paper: the published data set. */
  readonly scales: Readonly<Record<ScaleName, S>>;
  generate(scale: S): Data | Promise<Data>;
  /** Creates the schema (or collections and indexes) and loads the rows, replacing whatever was there. */
  load(databases: Databases, data: Data): Promise<LoadReport>;
  /** A content hash of the rows: two runs with equal fingerprints saw identical data. */
  fingerprint(data: Data): string;
}

export type Databases = ReadonlyMap<DatabaseKind, DatabaseServer>;

/** What verdicts and results record about the data a run saw. */
export interface DatasetInfo {
  readonly name: string;
  readonly seed: number;
  readonly scale: Readonly<Record<string, number>>;
  readonly fingerprint: string;
  readonly rows: Readonly<Record<string, number>>;
  readonly loadMs: number;
}

export interface Seeded<Data> {
  readonly data: Data;
  readonly info: DatasetInfo;
  /** Puts the seed back (after a flow or a repetition that wrote). */
  reset(): Promise<void>;
}

/** The URL of a database kind the API declared (a module asking for one it did not declare is a bug). */
export function databaseUrl(databases: Databases, kind: DatabaseKind): string {
  const server = databases.get(kind);
  if (!server) throw new Error(`no ${kind} database was started for this API: add it to its api.yaml databases`);
  return server.url;
}

export async function datasetModule<Data>(api: Api): Promise<DatasetModule<Data>> {
  return importPart<DatasetModule<Data>>(api, 'dataset');
}

/** Imports apis/<name>/<part>/index.ts and returns its default export. */
export async function importPart<T>(api: Api, part: 'dataset' | 'conformance' | 'bench'): Promise<T> {
  const file = join(api.dir, part, 'index.ts');
  const mod = (await import(pathToFileURL(file).href)) as { default?: T };
  if (mod.default === undefined) throw new Error(`${file} has no default export (the API's ${part} module)`);
  return mod.default;
}

/** Generates the scale's rows, loads them and fingerprints them. */
export async function seed<Data>(api: Api, scaleName: ScaleName, databases: Databases): Promise<Seeded<Data>> {
  const dataset = await datasetModule<Data>(api);
  const scale = dataset.scales[scaleName];
  const data = await dataset.generate(scale);
  const load = await dataset.load(databases, data);
  return {
    data,
    info: {
      name: api.manifest.name,
      seed: scale.seed,
      scale: { ...scale } as Readonly<Record<string, number>>,
      fingerprint: dataset.fingerprint(data),
      rows: load.rows,
      loadMs: Math.round(load.milliseconds),
    },
    reset: async () => {
      await dataset.load(databases, data);
    },
  };
}
