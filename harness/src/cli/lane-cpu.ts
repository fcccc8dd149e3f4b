// Preloaded into each lane's child (node --import): at its exit, the CPU seconds it and every
// process it waited for used (Linux's /proc/self/stat: utime, stime, cutime, cstime), written
// where FAIRBENCH_LANE_CPU_FILE says. A lane's wall time says how long it held a slot of the
// pool; its CPU says what it cost the machine, which is what a two-core pool is short of.
// Containers' processes are the container engine's children, not the lane's: not counted.
import { readFileSync, writeFileSync } from 'node:fs';

/** Clock ticks a second (getconf CLK_TCK): 100 on every Linux kernel configuration in use. */
const TICKS_PER_SECOND = 100;

/** utime + stime + cutime + cstime of a /proc/<pid>/stat line, in seconds. */
export function cpuSecondsOfStat(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime..cstime are fields 14..17.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS_PER_SECOND;
}

const file = process.env['FAIRBENCH_LANE_CPU_FILE'];
if (file !== undefined && process.platform === 'linux') {
  process.on('exit', () => {
    try {
      writeFileSync(file, String(cpuSecondsOfStat(readFileSync('/proc/self/stat', 'utf8'))));
    } catch {
      // No figure rather than a failed lane.
    }
  });
}
