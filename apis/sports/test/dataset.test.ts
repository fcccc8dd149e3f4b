// The sports data set: the generator is deterministic and keeps the booking rule; loaded
// into a real PostgreSQL, every row arrives, the database itself refuses an overlapping
// pending/accepted reservation and a second rating, and a reload (TRUNCATE path) restores
// the seed with the identity sequences past the seeded ids.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { fingerprintSports } from '../dataset/fingerprint.ts';
import { generateSports } from '../dataset/generate.ts';
import { loadSports } from '../dataset/load.ts';
import { CONFORMANCE_SCALE, TABLES, type Reservation } from '../dataset/model.ts';

let server: DatabaseServer;
before(async () => {
  server = await localProvider.start('postgres', { database: 'sports_load' });
});
after(() => runCleanup());

function overlaps(a: Reservation, b: Reservation): boolean {
  return a.field_id === b.field_id && a.date === b.date && a.start_hour < b.end_hour && b.start_hour < a.end_hour;
}

test('the generator is deterministic, its accounts come first, and no two live seeded reservations overlap', async () => {
  const a = await generateSports(CONFORMANCE_SCALE);
  const b = await generateSports(CONFORMANCE_SCALE);
  assert.equal(fingerprintSports(a), fingerprintSports(b));
  assert.notEqual(fingerprintSports(a), fingerprintSports(await generateSports({ ...CONFORMANCE_SCALE, seed: 2 })));
  const { app_user, sports_facility, sports_field, reservation, rating } = a.tables;
  assert.deepEqual(
    app_user.map((u) => u.role),
    [...Array(3).fill('owner'), ...Array(6).fill('user')],
  );
  assert.equal(sports_facility.length, 6);
  assert.equal(sports_field.length, 18);
  assert.equal(reservation.length, 24);
  const live = reservation.filter((r) => r.status !== 'refused');
  for (const [i, r] of live.entries()) for (const s of live.slice(i + 1)) assert.ok(!overlaps(r, s), `${r.id} overlaps ${s.id}`);
  for (const r of rating) assert.equal(reservation[r.reservation_id - 1]!.status, 'accepted');
  assert.ok(reservation.every((r) => app_user[r.user_id - 1]!.role === 'user'));
  assert.equal(a.passwords.size, app_user.length);
});

test('loaded into PostgreSQL: every row, the booking rule and one rating per reservation enforced by the database, reload restores the seed', async () => {
  const data = await generateSports(CONFORMANCE_SCALE);
  const first = await loadSports(server.url, data);
  const db = new pg.Client(server.url);
  await db.connect();
  try {
    for (const t of TABLES) assert.equal(Number((await db.query(`SELECT COUNT(*) AS n FROM ${t}`)).rows[0].n), data.tables[t].length, t);
    const taken = data.tables.reservation.find((r) => r.status === 'accepted')!;
    const overlap = db.query('INSERT INTO reservation (field_id, user_id, date, start_hour, end_hour) VALUES ($1, $2, $3, $4, $5)', [
      taken.field_id,
      taken.user_id,
      taken.date,
      taken.start_hour,
      taken.start_hour + 1,
    ]);
    await assert.rejects(overlap, (err: { code?: string }) => err.code === '23P01');
    const rated = data.tables.rating[0]!;
    await assert.rejects(
      db.query('INSERT INTO rating (reservation_id, score) VALUES ($1, 3)', [rated.reservation_id]),
      (err: { code?: string }) => err.code === '23505',
    );
    // Touching slots do not overlap; a new row takes the next id after the seeded ones.
    const next = await db.query('INSERT INTO reservation (field_id, user_id, date, start_hour, end_hour) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
      taken.field_id,
      taken.user_id,
      taken.date,
      taken.end_hour,
      Math.min(taken.end_hour + 1, 23),
    ]);
    // (the refused insert above used up one value of the sequence: ids need not be dense)
    assert.ok(next.rows[0].id > data.tables.reservation.length);
    const second = await loadSports(server.url, data);
    assert.deepEqual(second.rows, first.rows);
    assert.equal(Number((await db.query('SELECT COUNT(*) AS n FROM reservation')).rows[0].n), data.tables.reservation.length);
  } finally {
    await db.end();
  }
});
