// restart() of a local server (make resilience's database restart): stopped with its own
// signal and started again on the same port and data, a new process, the old group gone.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MongoClient } from 'mongodb';
import mysql from 'mysql2/promise';
import { runCleanup } from '../src/cleanup.ts';
import { localProvider } from '../src/provision/local/index.ts';

after(() => runCleanup());

test('MariaDB: a restart keeps the port, the password and the rows', async () => {
  const server = await localProvider.start('mysql');
  try {
    const before = server.process.pid;
    let conn = await mysql.createConnection(server.url);
    await conn.query('CREATE TABLE t (id INT PRIMARY KEY)');
    await conn.query('INSERT INTO t VALUES (42)');
    await conn.end();
    await server.restart();
    assert.notEqual(server.process.pid, before);
    assert.equal(server.process.alive(), true);
    conn = await mysql.createConnection(server.url);
    const [rows] = await conn.query('SELECT id FROM t');
    await conn.end();
    assert.deepEqual(rows, [{ id: 42 }]);
  } finally {
    await server.stop();
  }
});

test('FerretDB: a restart keeps the port and the documents', async () => {
  const server = await localProvider.start('mongo');
  try {
    const before = server.process.pid;
    let client = await new MongoClient(server.url, { directConnection: true }).connect();
    await client.db().collection('t').insertOne({ n: 42 });
    await client.close();
    await server.restart();
    assert.notEqual(server.process.pid, before);
    client = await new MongoClient(server.url, { directConnection: true, serverSelectionTimeoutMS: 5_000 }).connect();
    const doc = await client.db().collection('t').findOne({}, { projection: { _id: 0 } });
    await client.close();
    assert.deepEqual(doc, { n: 42 });
  } finally {
    await server.stop();
  }
});
