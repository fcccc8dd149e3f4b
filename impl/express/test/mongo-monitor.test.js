import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import test from 'node:test';

import mongoose from 'mongoose';

import { databaseUnavailable } from '../src/db-unavailable.js';
import { reconnectWhenMonitorWedges } from '../src/mongo-monitor.js';

/** A stand-in for MongoClient: its SDAM events, and close/connect recorded. */
function fakeClient() {
  const client = new EventEmitter();
  client.calls = [];
  client.close = async () => void client.calls.push('close');
  client.connect = async () => void client.calls.push('connect');
  return client;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

test('a heartbeat that does not settle within its bound and a second reconnects the client once', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const client = fakeClient();
  const lines = [];
  reconnectWhenMonitorWedges(client, { boundMs: 2_000, log: (line) => lines.push(line) });
  client.emit('serverHeartbeatStarted', {});
  t.mock.timers.tick(2_999);
  await flush();
  assert.deepEqual(client.calls, [], 'not before the bound and a second');
  t.mock.timers.tick(1);
  await flush();
  assert.deepEqual(client.calls, ['close', 'connect']);
  assert.match(lines[0], /has not settled in 3000 ms/);
});

test('heartbeats that succeed or fail within the bound never reconnect', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const client = fakeClient();
  reconnectWhenMonitorWedges(client, { boundMs: 2_000, log: () => {} });
  for (const settled of ['serverHeartbeatSucceeded', 'serverHeartbeatFailed', 'topologyClosed']) {
    client.emit('serverHeartbeatStarted', {});
    t.mock.timers.tick(2_000);
    client.emit(settled, {});
    t.mock.timers.tick(10_000);
  }
  await flush();
  assert.deepEqual(client.calls, []);
});

test('an operation the reconnect cut off is the database unavailable (a 503), not a bug', () => {
  const { MongoTopologyClosedError, MongoNotConnectedError } = mongoose.mongo;
  assert.ok(databaseUnavailable(new MongoTopologyClosedError()));
  assert.ok(databaseUnavailable(new MongoNotConnectedError('closed')));
  assert.ok(!databaseUnavailable(new TypeError('a bug')));
});

test('an operation the server cancelled as it shut down is the database unavailable, not a bug', () => {
  const { MongoServerError } = mongoose.mongo;
  assert.ok(databaseUnavailable(new MongoServerError({ code: 11600, errmsg: 'interrupted at shutdown' })));
  assert.ok(databaseUnavailable(new MongoServerError({ code: 1, errmsg: '[msg_find.go:344 handler.handleMaxTimeMSError] context canceled after delay' })));
  assert.ok(!databaseUnavailable(new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' })));
});
