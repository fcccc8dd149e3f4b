// make bench's profiles (bench/profiles.yaml): repetitions, window, warm-up and which cases,
// as data. A profile whose cases are `subset` takes each API's own list from
// apis/<api>/bench/profiles.yaml, so the runner names no API.
import { join } from 'node:path';
import { loadApi } from '@fairbench/harness/api/manifest.ts';
import apiProfilesSchema from '../../api-profiles.schema.json' with { type: 'json' };
import profilesSchema from '../../profiles.schema.json' with { type: 'json' };
import { UsageError } from '../load/failure.ts';
import { benchDir } from '../paths.ts';
import type { WarmupIterations } from './warm-up.ts';
import { loadYaml, loadYamlIfPresent } from '../yaml.ts';

export interface Profile {
  readonly name: string;
  readonly description: string;
  readonly repeat: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** A served case's first load warms up this long instead (bench/profiles.yaml says why). */
  readonly firstWarmupSeconds: number;
  /** Unrecorded iterations before a served case's repetitions, until the rate is steady (bench/src/plan/warm-up.ts). */
  readonly warmupIterations: WarmupIterations;
  /** Starts of the implementations per served case, the repetitions spread over them (bench/src/stats/process-pairs.ts). */
  readonly processPairs: number;
  /** A comparison's repetitions as switched slices of one load per process pair, where the API's script can send them (bench/profiles.yaml says why). */
  readonly switchedSlices?: SwitchedSlices;
  readonly quick: boolean;
  readonly cases: 'all' | 'subset';
  /** false: no database-alone case (the limit); true: every kept point's. */
  readonly limits: boolean;
}

/** Switched slices: `pairs` pairs per comparison, each slice measured for windowSeconds after its first guardSeconds. */
export interface SwitchedSlices {
  readonly pairs: number;
  readonly windowSeconds: number;
  readonly guardSeconds: number;
}

export interface EtaOverheads {
  readonly repetitionOverheadSeconds: number;
  readonly caseOverheadSeconds: number;
}

interface ProfilesFile {
  readonly default: string;
  readonly profiles: Record<string, Omit<Profile, 'name'>>;
  readonly eta: EtaOverheads;
}

/** An API's subset for one profile: case patterns (as CASES=) and why they represent the paper. */
export interface ApiSubset {
  readonly cases: readonly string[];
  readonly why: string;
  /** The API's quick variant of these cases (its paper-scale case alone outlasts the profile). */
  readonly quick?: boolean;
  /** The profile's values this API's run takes instead (its loads' cost), with why in the file. */
  readonly options?: SubsetOptions;
}

/** What an API's subset may set in place of the profile's: how many loads and starts its cases take. */
export interface SubsetOptions {
  readonly repeat?: number;
  readonly processPairs?: number;
  readonly warmupIterations?: { readonly max: number };
  readonly limits?: boolean;
}

export const profilesFile = join(benchDir, 'profiles.yaml');

export async function loadProfiles(file = profilesFile): Promise<ProfilesFile> {
  const { data } = await loadYaml<ProfilesFile>(file, profilesSchema);
  if (!data.profiles[data.default]) throw new Error(`${file}: the default profile '${data.default}' is not one of ${Object.keys(data.profiles).join(', ')}`);
  return data;
}

/** PROFILE= (or QUICK=1, its alias for the quick profile), else the file's default. */
export async function chooseProfile(given: string | undefined, quick: boolean, file = profilesFile): Promise<{ profile: Profile; eta: EtaOverheads }> {
  const data = await loadProfiles(file);
  const names = Object.keys(data.profiles);
  if (quick && given !== undefined && given !== 'quick') throw new UsageError(`QUICK=1 is PROFILE=quick: give one of them, not QUICK=1 with PROFILE=${given}`);
  const name = quick ? 'quick' : (given ?? data.default);
  const profile = data.profiles[name];
  if (!profile) throw new UsageError(`PROFILE must be one of ${names.join(', ')}, got '${name}'`);
  return { profile: { name, ...profile }, eta: data.eta };
}

/** The API's subset for a profile (apis/<api>/bench/profiles.yaml), or null when it has none. */
export async function apiSubset(api: string, profile: string): Promise<ApiSubset | null> {
  const file = join((await loadApi(api)).dir, 'bench', 'profiles.yaml');
  const data = await loadYamlIfPresent<Record<string, ApiSubset>>(file, apiProfilesSchema);
  if (data === null) return null;
  return data[profile] ?? null;
}

/**
 * The CASES filter a profile gives one API: the user's CASES first; `all` none; `subset`
 * the API's list, or none (every case, said in `note`) when the API names no subset.
 */
export async function profileCases(
  profile: Profile,
  api: string,
  userCases: string | undefined,
): Promise<{ cases?: string; note?: string; quick?: true; profile: Profile }> {
  if (profile.cases === 'all') return { ...(userCases !== undefined ? { cases: userCases } : {}), profile };
  const subset = await apiSubset(api, profile.name);
  // The subset's options hold for its API whatever cases run: they are what its loads cost.
  const own = subset?.options ? withSubsetOptions(profile, subset.options) : profile;
  if (userCases !== undefined) return { cases: userCases, profile: own };
  if (!subset) return { note: `${api} names no ${profile.name} subset (apis/${api}/bench/profiles.yaml): every case of its default models`, profile };
  const quick = subset.quick === true && !profile.quick ? ({ quick: true } as const) : {};
  const changed = subset.options ? ` (${subsetOptionsNote(subset.options)})` : '';
  return {
    cases: subset.cases.join(','),
    note: `${api}, ${profile.name} subset${'quick' in quick ? ' (its quick variant)' : ''}${changed}: ${subset.why.trim().split('\n')[0]}`,
    ...quick,
    profile: own,
  };
}

/** The profile with an API subset's values in place of its own. */
export function withSubsetOptions(profile: Profile, o: SubsetOptions): Profile {
  return {
    ...profile,
    ...(o.repeat !== undefined ? { repeat: o.repeat } : {}),
    ...(o.processPairs !== undefined ? { processPairs: o.processPairs } : {}),
    ...(o.warmupIterations ? { warmupIterations: { ...profile.warmupIterations, max: o.warmupIterations.max } } : {}),
    ...(o.limits !== undefined ? { limits: o.limits } : {}),
  };
}

function subsetOptionsNote(o: SubsetOptions): string {
  const parts = [
    o.repeat !== undefined ? `${o.repeat} repetitions` : '',
    o.processPairs !== undefined ? `${o.processPairs} process pairs` : '',
    o.warmupIterations ? `at most ${o.warmupIterations.max} warm-up iterations` : '',
    o.limits === false ? 'no database-alone cases' : '',
  ];
  return parts.filter(Boolean).join(', ');
}
