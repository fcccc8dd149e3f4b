// The forum benchmark's contract (make pact): what bench/k6.js sends and what it reads of
// each answer — the status, the number of comments (it counts "comment_id"), the user joined
// to each (it counts "user":{ and looks for the drawn user_id), no GraphQL errors, and the
// Server-Timing header it takes the server's time from. Nothing else of a comment is read, so
// nothing else is promised here: the conformance suite checks the rest.
import mysql from 'mysql2/promise';
import { MatchersV3 as M, type V3Interaction } from '@pact-foundation/pact';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConsumerRun, PactModule, StateContext } from '@fairbench/pact/module.ts';

// The consumer runs draw ids from 1..1 (COMMENT_IDS, USER_IDS): comment 1 and user 1.
const SEEDED = 'the forum data set is seeded';
const USER_1_HAS_100 = 'user 1 has 100 comments or more';
const ROWS = [1, 50, 100] as const;

// As bench/k6.js writes them; the consumer test fails when these and the script's differ.
const COMMENT_FIELDS = 'comment_id thread_id user_id body datemade datelastupdated';
const USER_FIELDS = 'user { user_id name email phone datemade datelastupdated }';

const headers = { 'Server-Timing': M.regex('^app;dur=[0-9]+(\\.[0-9]+)?$', 'app;dur=0.250') };
const comment = { comment_id: M.integer(1) };
const joined = { comment_id: M.integer(1), user_id: M.integer(1), user: { user_id: M.integer(1) } };
const exactly = <T>(n: number, item: T) => M.constrainedArrayLike(item, n, n);

interface Operation {
  readonly name: string;
  readonly rows: number;
  readonly joins: 0 | 1;
  readonly state: string;
  readonly rest: string;
  readonly query: string;
  readonly variables: Record<string, unknown>;
  /** The answer's comments: one object (rows 1) or exactly `rows` of them. */
  readonly body: unknown;
}

const operations: Operation[] = ROWS.flatMap((rows): Operation[] =>
  rows === 1
    ? [
        {
          name: 'commentById',
          rows,
          joins: 0,
          state: SEEDED,
          rest: '/comment/1',
          query: `query Q($id: ID!) { commentById(id: $id) { ${COMMENT_FIELDS} } }`,
          variables: { id: M.integer(1) },
          body: comment,
        },
        {
          name: 'commentByUserId',
          rows,
          joins: 1,
          state: SEEDED,
          rest: '/user/1/comment',
          query: `query Q($id: ID!) { commentByUserId(id: $id) { ${COMMENT_FIELDS} ${USER_FIELDS} } }`,
          variables: { id: M.integer(1) },
          body: joined,
        },
      ]
    : [
        {
          name: 'commentsByLimit',
          rows,
          joins: 0,
          state: SEEDED,
          rest: `/comments/${rows}`,
          query: `query Q($limit: Int!) { commentsByLimit(limit: $limit) { ${COMMENT_FIELDS} } }`,
          variables: { limit: rows },
          body: exactly(rows, comment),
        },
        {
          name: 'commentsByUserId',
          rows,
          joins: 1,
          state: USER_1_HAS_100,
          rest: `/user/1/comments/${rows}`,
          query: `query Q($id: ID!, $limit: Int!) { commentsByUserId(id: $id, limit: $limit) { ${COMMENT_FIELDS} ${USER_FIELDS} } }`,
          variables: { id: M.integer(1), limit: rows },
          body: exactly(rows, joined),
        },
      ],
);

const interactions: V3Interaction[] = operations.flatMap((op): V3Interaction[] => [
  {
    states: [{ description: op.state }],
    uponReceiving: `REST ${op.name}, ${op.rows} row(s)`,
    withRequest: { method: 'GET', path: op.rest },
    willRespondWith: { status: 200, headers, body: op.body as V3Interaction['willRespondWith']['body'] },
  },
  {
    states: [{ description: op.state }],
    uponReceiving: `GraphQL ${op.name}, ${op.rows} row(s)`,
    withRequest: { method: 'POST', path: '/graphql', headers: { 'Content-Type': 'application/json' }, body: { query: op.query, variables: op.variables } },
    willRespondWith: { status: 200, headers, body: { data: { [op.name]: op.body } } as V3Interaction['willRespondWith']['body'] },
  },
]);

// Two arrivals per run (open model, 2/s for k6's shortest duration, 1 s): every (protocol, rows, joins) point of bench/scenario.yaml.
const runs: ConsumerRun[] = (['rest', 'graphql'] as const).flatMap((protocol) =>
  operations.map((op) => ({
    name: `${protocol} rows=${op.rows} joins=${op.joins}`,
    env: { PROTOCOL: protocol, ROWS: op.rows, JOINS: op.joins, MODEL: 'open', RATE: 2, VUS: 1, WARMUP: 0, DURATION: 1, COMMENT_IDS: 1, USER_IDS: 1, SEED: 1 },
  })),
);

async function withDb<T>(ctx: StateContext, f: (db: mysql.Connection) => Promise<T>): Promise<T> {
  const db = await mysql.createConnection({ uri: databaseUrl(ctx.databases, 'mysql') });
  try {
    return await f(db);
  } finally {
    await db.end();
  }
}

const pactModule: PactModule = {
  interactions,
  runs,
  states: {
    // Read-only API: the seed loaded at launch is the state; checked, not assumed.
    [SEEDED]: (ctx) =>
      withDb(ctx, async (db) => {
        const [[row]] = (await db.query(
          'SELECT (SELECT COUNT(*) FROM comment) AS comments, (SELECT COUNT(*) FROM comment WHERE comment_id = 1) AS first, (SELECT COUNT(*) FROM user WHERE user_id = 1) AS user1',
        )) as unknown as [[{ comments: number; first: number; user1: number }]];
        if (row.comments < 100 || row.first !== 1 || row.user1 !== 1)
          throw new Error(`the forum seed lacks comment 1, user 1 or 100 comments: ${JSON.stringify(row)}`);
      }),
    // The seed draws each comment's user at random: give user 1 the comments it lacks.
    [USER_1_HAS_100]: (ctx) =>
      withDb(ctx, async (db) => {
        const [[{ n }]] = (await db.query('SELECT COUNT(*) AS n FROM comment WHERE user_id = 1')) as unknown as [[{ n: number }]];
        const [[{ thread }]] = (await db.query('SELECT MIN(thread_id) AS thread FROM thread')) as unknown as [[{ thread: number }]];
        for (let i = n; i < 100; i++)
          await db.execute(
            "INSERT INTO comment (thread_id, user_id, body, datemade, datelastupdated) VALUES (?, 1, 'pact state', '2020-01-01', '2020-01-01')",
            [thread],
          );
      }),
  },
};
export default pactModule;
