// Whether the database still answers: a TCP connection to its port (local and container
// databases alike listen on 127.0.0.1). Asked when a case fails, to name the database
// as the cause when it went away, and before each case.
import net from 'node:net';

/** Why the database at `url` does not answer, or undefined when it accepts a connection. */
export function databaseDown(url: string, timeoutMs = 3_000): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  const where = `${hostname}:${port}`;
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(`the database does not answer on ${where} (no connection within ${timeoutMs / 1000} s)`), timeoutMs);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(`the database does not answer on ${where} (${error.code ?? error.message})`));
  });
}
