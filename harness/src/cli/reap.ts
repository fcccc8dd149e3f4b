// Stops servers that an earlier run left behind when it was killed outright
// (SIGKILL, a closed terminal): run by `make setup`, so before every target.
import { reapStale } from '../process.ts';

const reaped = await reapStale();
if (reaped.length > 0) console.log(`stopped ${reaped.length} server(s) left behind by an earlier run: ${reaped.join(', ')}`);
