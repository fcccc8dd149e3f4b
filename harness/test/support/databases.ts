// What the provider tests check on any server, whichever runtime started it.
import assert from 'node:assert/strict';
import net from 'node:net';
import { MongoClient } from 'mongodb';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseKind } from '../../src/provision/types.ts';

/** Write then read through the server's own driver, using nothing but its URL. */
const writeAndRead: Record<DatabaseKind, (url: string) => Promise<string>> = {
  async mysql(url) {
    const conn = await createConnection(url);
    try {
      await conn.query('CREATE TABLE greeting (id INT PRIMARY KEY, text VARCHAR(50) NOT NULL)');
      await conn.query('INSERT INTO greeting VALUES (?, ?)', [1, 'héllo ✓']);
      const [rows] = await conn.query<RowDataPacket[]>('SELECT text FROM greeting WHERE id = 1');
      return String(rows[0]?.['text']);
    } finally {
      await conn.end();
    }
  },
  async postgres(url) {
    const client = new pg.Client(url);
    await client.connect();
    try {
      await client.query('CREATE TABLE greeting (id INT PRIMARY KEY, text TEXT NOT NULL)');
      await client.query('INSERT INTO greeting VALUES ($1, $2)', [1, 'héllo ✓']);
      const { rows } = await client.query<{ text: string }>('SELECT text FROM greeting WHERE id = 1');
      return String(rows[0]?.text);
    } finally {
      await client.end();
    }
  },
  async mongo(url) {
    const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5_000 });
    try {
      const greetings = client.db().collection<{ _id: number; text: string }>('greeting');
      await greetings.insertOne({ _id: 1, text: 'héllo ✓' });
      return String((await greetings.findOne({ _id: 1 }))?.text);
    } finally {
      await client.close();
    }
  },
};

/** The same URL with a wrong password must be refused: the password is really required. */
const refusesWrongPassword: Partial<Record<DatabaseKind, (url: string) => Promise<unknown>>> = {
  mysql: (url) => createConnection(withPassword(url, 'wrong')).then((c) => c.end()),
  postgres: async (url) => {
    const client = new pg.Client(withPassword(url, 'wrong'));
    await client.connect();
    await client.end();
  },
};

function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = password;
  return u.href;
}

export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The server works through its driver with nothing but its URL, and refuses that URL with a wrong password. */
export async function checkUsableAndGuarded(kind: DatabaseKind, url: string): Promise<void> {
  assert.equal(await writeAndRead[kind](url), 'héllo ✓');
  const wrongPassword = refusesWrongPassword[kind];
  if (wrongPassword) await assert.rejects(wrongPassword(url), /password|denied/i);
}
