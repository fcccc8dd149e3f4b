// Before the first case of a session: the machine's state (noise.ts, with one loud line
// when it is not quiet) and the generator's ceiling (ceiling.ts), both for the document.
import { describeCeiling, measureCeiling } from './ceiling.ts';
import { machineNoise, noiseWarning } from './noise.ts';
import type { Placement } from './placement.ts';
import type { GeneratorCeiling, MachineNoise } from './result-document.ts';

export async function preflight(placement: Placement, workDir: string): Promise<{ noise: MachineNoise; ceiling: GeneratorCeiling | undefined }> {
  const noise = await machineNoise();
  const warning = noiseWarning(noise);
  console.log(warning ?? `machine: quiet (load average ${noise.loadAverage.join(' ')}, governor ${noise.governor ?? 'none exposed'})`);
  const ceiling = await measureCeiling(placement, workDir);
  if (ceiling) console.log(describeCeiling(ceiling));
  return { noise, ceiling };
}
