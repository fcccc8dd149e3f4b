// The MongoDB client is reconnected when the driver's server monitor wedges after a restart
// (src/mongo-monitor.ts), and an operation that reconnect cut off is a 503, not a 500.
import { expect, test } from 'bun:test';
import { EventEmitter } from 'node:events';
import mongoose from 'mongoose';
import { mongoUnavailable } from '../src/mongo.ts';
import { reconnectWhenMonitorWedges } from '../src/mongo-monitor.ts';

/** A stand-in for MongoClient: its SDAM events, and close/connect recorded. */
function fakeClient() {
  const calls: string[] = [];
  const client = Object.assign(new EventEmitter(), {
    calls,
    close: async () => void calls.push('close'),
    connect: async () => void calls.push('connect'),
  });
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Client = Parameters<typeof reconnectWhenMonitorWedges>[0];

test('a heartbeat unsettled past its bound and a second reconnects the client once', async () => {
  const client = fakeClient();
  const lines: string[] = [];
  reconnectWhenMonitorWedges(client as unknown as Client, { boundMs: 10, log: (line) => lines.push(line) });
  client.emit('serverHeartbeatStarted', {});
  await sleep(800);
  expect(client.calls).toEqual([]);
  await sleep(400);
  expect(client.calls).toEqual(['close', 'connect']);
  expect(lines[0]).toMatch(/has not settled in 1010 ms/);
});

test('heartbeats that succeed or fail in time never reconnect', async () => {
  const client = fakeClient();
  reconnectWhenMonitorWedges(client as unknown as Client, { boundMs: 10, log: () => {} });
  for (const settled of ['serverHeartbeatSucceeded', 'serverHeartbeatFailed', 'topologyClosed']) {
    client.emit('serverHeartbeatStarted', {});
    client.emit(settled, {});
  }
  await sleep(1200);
  expect(client.calls).toEqual([]);
});

test('an operation the reconnect cut off is the database unavailable (a 503), not a bug', () => {
  const { MongoTopologyClosedError, MongoNotConnectedError } = mongoose.mongo;
  expect(mongoUnavailable(new MongoTopologyClosedError())).toBe(true);
  expect(mongoUnavailable(new MongoNotConnectedError('closed'))).toBe(true);
  expect(mongoUnavailable(new TypeError('a bug'))).toBe(false);
});

test('an operation the server cancelled as it shut down is the database unavailable, not a bug', () => {
  const { MongoServerError } = mongoose.mongo;
  expect(mongoUnavailable(new MongoServerError({ code: 11600, errmsg: 'interrupted at shutdown' }))).toBe(true);
  expect(mongoUnavailable(new MongoServerError({ code: 1, errmsg: '[msg_find.go:344 handler.handleMaxTimeMSError] context canceled after delay' }))).toBe(true);
  expect(mongoUnavailable(new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' }))).toBe(false);
});
