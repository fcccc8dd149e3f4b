// FerretDB's `_id` lookups must use the `_id_` index, not scan the table: unpatched, v1.24's
// SQLite backend indexes one expression and filters by another, so every find, replace and
// delete by `_id` took time in proportion to the collection (scripts/patches/). A scan would
// make the users and documents benchmarks measure the collection's size, not the framework.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MongoClient, ObjectId, type Collection } from 'mongodb';
import { runCleanup } from '../../src/cleanup.ts';
import { localProvider } from '../../src/provision/local/index.ts';

after(() => runCleanup());

const SMALL = 1_000;
const LARGE = 20_000;
const LOOKUPS = 101;

interface Doc {
  _id: ObjectId;
  n: number;
  pad: string;
}

async function fill(collection: Collection<Doc>, count: number): Promise<ObjectId[]> {
  const ids = Array.from({ length: count }, () => new ObjectId());
  for (let i = 0; i < count; i += 1_000) {
    await collection.insertMany(ids.slice(i, i + 1_000).map((_id, j) => ({ _id, n: i + j, pad: 'x'.repeat(1_000) })));
  }
  return ids;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

test('FerretDB finds a document by _id through its index, in a time independent of the collection size', async (t) => {
  const server = await localProvider.start('mongo');
  const client = new MongoClient(server.url, { directConnection: true });
  try {
    await client.connect();
    const db = client.db();
    const small = db.collection<Doc>('small');
    const large = db.collection<Doc>('large');
    const [smallIds, largeIds] = [await fill(small, SMALL), await fill(large, LARGE)];

    // The plan of the query FerretDB itself builds for {_id: …} (SQLite's EXPLAIN QUERY PLAN).
    await t.test('the plan SEARCHes the _id_ index', async (t) => {
      const explained = await db.command({ explain: { find: 'large', filter: { _id: largeIds[123] } }, verbosity: 'queryPlanner' });
      const plan = (explained['queryPlanner'] as { Plan?: unknown } | undefined)?.Plan;
      assert.ok(Array.isArray(plan) && plan.length > 0, `a SQLite plan in ${JSON.stringify(explained)}`);
      t.diagnostic(`plan: ${plan.join(' | ')}`);
      assert.ok(
        plan.some((step) => /\bSEARCH\b.*\bUSING INDEX\b.*__id_\b/.test(String(step))),
        `SEARCH … USING INDEX …_id_, not: ${plan.join(' | ')}`,
      );
      assert.ok(!plan.some((step) => /\bSCAN\b/.test(String(step))), `no SCAN step: ${plan.join(' | ')}`);
    });

    // Timing, in alternation so that the noise of a shared machine falls on both sizes alike.
    await t.test(`findOne({_id}) at ${LARGE} documents takes less than twice its time at ${SMALL}`, async (t) => {
      const times: Record<'small' | 'large', number[]> = { small: [], large: [] };
      const lookup = async (which: 'small' | 'large', i: number): Promise<void> => {
        const [collection, ids] = which === 'small' ? [small, smallIds] : [large, largeIds];
        const id = ids[(i * 7919) % ids.length]!;
        const started = performance.now();
        const found = await collection.findOne({ _id: id });
        times[which].push(performance.now() - started);
        assert.equal(found?._id.toHexString(), id.toHexString());
      };
      for (let i = 0; i < 10; i++) for (const which of ['small', 'large'] as const) await lookup(which, i); // warm-up
      times.small.length = times.large.length = 0;
      for (let i = 0; i < LOOKUPS; i++) for (const which of ['small', 'large'] as const) await lookup(which, i);
      const [atSmall, atLarge] = [median(times.small), median(times.large)];
      t.diagnostic(`findOne({_id}) median of ${LOOKUPS}: ${atSmall.toFixed(2)} ms at ${SMALL} documents, ${atLarge.toFixed(2)} ms at ${LARGE}`);
      assert.ok(atLarge < 2 * atSmall, `at ${LARGE} documents (${atLarge.toFixed(2)} ms) within 2× of ${SMALL} (${atSmall.toFixed(2)} ms)`);
    });
  } finally {
    await client.close();
    await server.stop();
  }
});
