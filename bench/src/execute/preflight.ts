// Before the first case of a session: the machine's state (noise.ts, with one loud line
// when it is not quiet) and the generator's ceiling (ceiling.ts), both for the document.
import { CEILING_LOAD, describeCeiling, measureCeiling } from './ceiling.ts';
import { machineNoise, noiseWarning } from './noise.ts';
import type { Placement } from '../load/placement.ts';
import type { GeneratorCeiling, MachineNoise } from '../record/result-document.ts';

/** QUICK runs leave out the wrk cross-check (3.5 s of a smoke run's ~6 s here). */
export async function preflight(
  placement: Placement,
  workDir: string,
  quick: boolean,
  measureGeneratorCeiling = true,
): Promise<{ noise: MachineNoise; ceiling: GeneratorCeiling | undefined }> {
  const noise = await machineNoise();
  const warning = noiseWarning(noise);
  console.log(warning ?? `machine: quiet (load average ${noise.loadAverage.join(' ')}, governor ${noise.governor ?? 'none exposed'})`);
  if (!measureGeneratorCeiling) console.log('generator ceiling: not measured (the generators run on other hosts than this one)');
  const ceiling = measureGeneratorCeiling ? await measureCeiling(placement, workDir, CEILING_LOAD, !quick) : undefined;
  if (ceiling) console.log(describeCeiling(ceiling));
  return { noise, ceiling };
}
