// Keeps the MongoDB driver's server monitor alive across a database restart.
//
// The driver (mongodb 7.9 and earlier) bounds every heartbeat by connectTimeoutMS but one: when
// the server closes all its connections at once (a restart) and a heartbeat is written to the
// monitor's socket after Node destroyed it, but before the driver saw the socket's 'close', the
// write waits for a 'drain' that never comes. No heartbeat runs again, the server stays Unknown,
// and every operation fails server selection (503) until the process restarts. make
// resilience's restart scenario caught it in about one run in ten.
//
// A heartbeat that has not settled within its bound and a second is that case: the client is
// closed and connected again (the same client, so mongoose's models keep working).

/**
 * @param {import('mongodb').MongoClient} client
 * @param {{ boundMs: number, log?: (line: string) => void }} options boundMs: connectTimeoutMS
 */
export function reconnectWhenMonitorWedges(client, { boundMs, log = console.error }) {
  const wedgedAfterMs = boundMs + 1_000;
  let timer;
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
        log(`mongodb: reconnect after a wedged monitor: ${err.message}`);
      } finally {
        reconnecting = false;
      }
    }, wedgedAfterMs);
    timer.unref();
  });
  client.on('serverHeartbeatSucceeded', settled);
  client.on('serverHeartbeatFailed', settled);
  client.on('topologyClosed', settled);
}
