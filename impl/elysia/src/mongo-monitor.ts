// Keeps the MongoDB driver's server monitor alive across a database restart.
//
// The driver (mongodb 7.9 and earlier) bounds every heartbeat by connectTimeoutMS but one: when
// the server closes all its connections at once (a restart) and a heartbeat is written to the
// monitor's socket after the runtime destroyed it, but before the driver saw the socket's
// 'close', the write waits for a 'drain' that never comes. No heartbeat runs again, the server
// stays Unknown, and every operation fails server selection (503) until the process restarts.
// make resilience's restart scenario caught it in Express in about one run in ten.
//
// A heartbeat that has not settled within its bound and a second is that case: the client is
// closed and connected again (the same client, so mongoose's models keep working).
import type { Connection } from 'mongoose';

type MongoClient = ReturnType<Connection['getClient']>;

export function reconnectWhenMonitorWedges(client: MongoClient, options: { boundMs: number; log?: (line: string) => void }): void {
  const log = options.log ?? console.error;
  const wedgedAfterMs = options.boundMs + 1_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reconnecting = false;
  const settled = () => clearTimeout(timer);
  client.on('serverHeartbeatStarted', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (reconnecting) return;
      reconnecting = true;
      log(`mongodb: a server heartbeat has not settled in ${wedgedAfterMs} ms (the monitor is wedged): reconnecting the client`);
      try {
        await client.close();
        await client.connect();
      } catch (err) {
        // The server is down: the driver's own monitor, now fresh, keeps trying.
        log(`mongodb: reconnect after a wedged monitor: ${(err as Error).message}`);
      } finally {
        reconnecting = false;
      }
    }, wedgedAfterMs);
    timer.unref?.();
  });
  client.on('serverHeartbeatSucceeded', settled);
  client.on('serverHeartbeatFailed', settled);
  client.on('topologyClosed', settled);
}
