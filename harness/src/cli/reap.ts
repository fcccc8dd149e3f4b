// Stops servers and removes containers that an earlier run left behind when it was killed
// outright (SIGKILL, a closed terminal), and its network labs: run by `make setup`, so before every target.
import { reapStaleContainers } from '../containers/engine.ts';
import { reapStale } from '../process.ts';
import { removeStaleLabs } from '../hosts/lab.ts';

const reaped = await reapStale();
if (reaped.length > 0) console.log(`stopped ${reaped.length} server(s) left behind by an earlier run: ${reaped.join(', ')}`);
const containers = await reapStaleContainers().catch((err: unknown) => {
  console.log(`could not list the project's containers: ${String(err).split('\n')[0]}`);
  return [];
});
if (containers.length > 0) console.log(`removed ${containers.length} container(s) left behind by an earlier run: ${containers.join(', ')}`);
// Network labs (hosts/lab.ts) of a harness killed outright; a kept one (make lab-up) stays.
if (process.getuid?.() === 0) {
  const labs = await removeStaleLabs().catch((err: unknown) => {
    console.log(`could not remove the network labs left behind: ${String(err).split('\n')[0]}`);
    return [];
  });
  if (labs.length > 0) console.log(`removed ${labs.length} network namespace(s) left behind by an earlier run: ${labs.join(', ')}`);
}
