// Ports for everything the harness starts (databases, implementations).
import getPort from 'get-port';

/**
 * A free port on 127.0.0.1, picked at random below the kernel's ephemeral range
 * (32768+) so that client connections of the benchmark never sit on it, and at
 * random so that harnesses starting servers at the same moment rarely collide.
 */
export async function freePort(): Promise<number> {
  const candidates = Array.from({ length: 20 }, () => 20_000 + Math.floor(Math.random() * 12_000));
  return getPort({ port: candidates, host: '127.0.0.1' });
}
