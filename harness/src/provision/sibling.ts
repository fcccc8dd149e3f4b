// Another database on a running server: the benchmark gives each implementation of a
// comparison whose load writes its own database, seeded identically, on the same server (the
// same engine, process, caches and cores), so that a switched load can alternate between them
// with no reset between slices (bench/docs/precision.md). Created empty through the server's
// URL; MongoDB (FerretDB here) creates a database on its first write.
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseServer } from './types.ts';

/** A database name the engines all accept unquoted: letters, digits and underscores. */
const NAME = /^[a-z][a-z0-9_]{0,62}$/;

/** The URL of `server` with its database replaced by `name`. */
export function urlWithDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Creates database `name` on `server` (replacing one of that name) and returns it as a server
 * of its own: the same engine, provider and address, its URL naming the new database. Its
 * stop() does nothing: the server's own stop() deletes every database on it.
 */
export async function siblingDatabase(server: DatabaseServer, name: string): Promise<DatabaseServer> {
  if (!NAME.test(name)) throw new Error(`siblingDatabase: '${name}' is not a plain database name`);
  const url = urlWithDatabase(server.url, name);
  if (url === server.url) throw new Error(`siblingDatabase: ${name} is the server's own database`);
  if (server.kind === 'mysql') {
    const conn = await mysql.createConnection(server.url);
    try {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.query(`CREATE DATABASE \`${name}\``);
    } finally {
      await conn.end();
    }
  } else if (server.kind === 'postgres') {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}"`);
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
  }
  return { kind: server.kind, url, engine: server.engine, provider: server.provider, stop: async () => {} };
}
