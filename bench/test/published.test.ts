// The report's "published findings" section: which of our cases speak to a finding, the
// figure read from each repetition, and whether each case reproduces the finding.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { parse } from 'yaml';
import { newAjv } from '@fairbench/conformance/json-schema.ts';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import publishedSchema from '../schemas/published.schema.json' with { type: 'json' };
import { publishedFindings, type Published } from '../src/report/published.ts';
import type { CaseRow, CaseResult } from '../src/report/model.ts';
import type { Repetition } from '../src/record/result-document.ts';

const rep = (throughput: number, sd: number, invalid = false): Repetition => ({
  index: 1,
  startedAt: '2026-11-23T00:00:00.000Z',
  durationSeconds: 10,
  requests: throughput * 10,
  errors: {},
  throughput,
  latencyMs: { min: 1, mean: 10, median: 9, p90: 15, p95: 20, p99: 30, max: 40, sd },
  ...(invalid ? { invalid: true as const } : {}),
});
const result = (impl: string, reps: Repetition[]) => ({ impl, case: { repetitions: reps } }) as unknown as CaseResult;
const row = (id: string, results: CaseResult[]): CaseRow => ({ id, protocol: 'rest', model: 'closed', parameters: {}, results });
const five = (base: number, step: number) => [0, 1, 2, 3, 4].map((i) => base + i * step);

const rows = [
  // a: clearly faster with a smaller spread; b: slower.
  row('rest/closed/payment-c25', [
    result(
      'a',
      five(200, 1).map((t) => rep(t, 5)),
    ),
    result(
      'b',
      five(100, 1).map((t) => rep(t, 20)),
    ),
  ]),
  // the opposite at this point.
  row('rest/closed/payment-c50', [
    result(
      'a',
      five(100, 1).map((t) => rep(t, 20)),
    ),
    result(
      'b',
      five(200, 1).map((t) => rep(t, 5)),
    ),
  ]),
  // three repetitions: an interval, no verdict.
  row('rest/closed/payment-c100', [
    result(
      'a',
      [1, 2, 3].map((t) => rep(100 + t, 5)),
    ),
    result(
      'b',
      [1, 2, 3].map((t) => rep(100 + t, 5)),
    ),
  ]),
  row('rest/sequential/stock-level', [
    result(
      'a',
      five(50, 1).map((t) => rep(t, 1)),
    ),
    result(
      'b',
      five(50, 1).map((t) => rep(t, 1)),
    ),
  ]),
];
const published: Published = {
  source: 'a paper',
  findings: [
    { what: 'rps', finding: 'a about twice b', ours: { cases: 'rest/closed/payment-*', figure: 'throughput', expect: { better: 'a' } } },
    { what: 'sd', finding: 'b spreads less', ours: { cases: 'rest/closed/payment-*', figure: 'latency-sd', expect: { better: 'b' } } },
    { what: 'tpm', finding: 'close', ours: { cases: 'rest/sequential/*', figure: 'per-minute', expect: 'close' } },
    { what: 'ordering', finding: 'stock-level highest', ours: { cases: 'rest/sequential/*', figure: 'per-minute' } },
    { what: 'text', finding: 'nothing of ours' },
  ],
};

test('a finding is checked case by case: reproduced, the opposite, or undecided below five repetitions', () => {
  const [rps, sd, tpm, ordering, text] = publishedFindings('x', ['a', 'b'], rows, published);
  assert.deepEqual(
    rps!.cases.map((c) => [c.caseId, c.reproduced]),
    [
      ['rest/closed/payment-c25', 'yes'],
      ['rest/closed/payment-c50', 'no: the opposite'],
      ['rest/closed/payment-c100', 'undecided'],
    ],
  );
  assert.deepEqual(rps!.pair, ['a', 'b']);
  assert.equal(rps!.cases[0]!.comparison!.ratio, 202 / 102);
  // The better implementation comes first in the ratio: b's SD over a's.
  assert.deepEqual(sd!.pair, ['b', 'a']);
  assert.deepEqual(
    sd!.cases.map((c) => c.reproduced),
    ['no: the opposite', 'yes', 'undecided'],
  );
  assert.equal(sd!.cases[0]!.comparison!.ratio, 4);
  // Per minute = throughput × 60; identical groups: no difference, as the paper said.
  assert.equal(tpm!.cases[0]!.values[0]!.figure.median, 52 * 60);
  assert.equal(tpm!.cases[0]!.reproduced, 'yes');
  assert.equal(ordering!.cases[0]!.reproduced, 'not a comparison');
  assert.deepEqual([text!.figure, text!.cases], [null, []]);
});

test('Apdex and time to failure as figures: a repetition that survived to the cap has no time to failure and is left out', () => {
  const stressed = (impl: string, scores: number[], failedAfter: (number | undefined)[]) =>
    result(
      impl,
      scores.map((score, i) => ({
        ...rep(10, 1),
        apdex: { tMs: 1000, fMs: 10000, requests: 100, satisfied: 0, tolerating: 0, score },
        stress: {
          ...(failedAfter[i] !== undefined ? { failedAfterSeconds: failedAfter[i] } : {}),
          reason: 'r',
          capSeconds: 660,
          recovery: { recovered: true, withinSeconds: 60 },
        },
      })),
    );
  const stressRows = [row('rest/closed/stress', [stressed('a', [0.6, 0.5, 0.55], [190, undefined, 200]), stressed('b', [0.3, 0.35, 0.4], [120, 130, 125])])];
  const [apdex, ttf] = publishedFindings('x', ['a', 'b'], stressRows, {
    source: 'p',
    findings: [
      { what: 'apdex', finding: 'a higher', ours: { cases: 'rest/closed/stress', figure: 'apdex', expect: { better: 'a' } } },
      { what: 'ttf', finding: 'a later', ours: { cases: 'rest/closed/stress', figure: 'time-to-failure', expect: { better: 'a' } } },
    ],
  });
  assert.deepEqual(
    apdex!.cases[0]!.values.map((v) => [v.impl, v.figure.median]),
    [
      ['a', 0.55],
      ['b', 0.35],
    ],
  );
  assert.deepEqual(
    ttf!.cases[0]!.values.map((v) => [v.impl, v.figure.median]),
    [
      ['a', 195],
      ['b', 125],
    ],
  );
});

test("repetitions that broke the data's conditions do not count", () => {
  const spoiled = [
    row('rest/closed/payment-c25', [
      result('a', [...five(200, 1).map((t) => rep(t, 5)), rep(1, 5, true)]),
      result(
        'b',
        five(100, 1).map((t) => rep(t, 5)),
      ),
    ]),
  ];
  const [rps] = publishedFindings('x', ['a', 'b'], spoiled, published);
  assert.equal(rps!.cases[0]!.values[0]!.figure.median, 202);
  assert.equal(rps!.cases[0]!.comparison!.nA, 5);
});

test('a finding about a pair that did not both run is left undecided', () => {
  const alone = [
    row('rest/closed/payment-c25', [
      result(
        'a',
        five(200, 1).map((t) => rep(t, 5)),
      ),
    ]),
  ];
  const [rps] = publishedFindings('x', ['a'], alone, published);
  assert.equal(rps!.pair, null);
  assert.equal(rps!.cases[0]!.reproduced, 'undecided');
  assert.equal(rps!.cases[0]!.values.length, 1);
});

test('a finding that cannot run here carries its reason, with our figures beside it when it names cases', () => {
  const [withCases, textOnly] = publishedFindings('x', ['a'], rows, {
    source: 'a paper',
    findings: [
      {
        what: 'vs c',
        finding: 'c faster',
        ours: { cases: 'rest/closed/payment-c25', figure: 'throughput' },
        notHere: 'c needs a toolchain this machine lacks',
      },
      { what: 'memory', finding: 'c uses more', notHere: 'c needs a toolchain this machine lacks' },
    ],
  });
  assert.equal(withCases!.notHere, 'c needs a toolchain this machine lacks');
  assert.deepEqual(
    withCases!.cases.map((c) => [c.caseId, c.reproduced, c.values.map((v) => v.impl)]),
    [['rest/closed/payment-c25', 'not a comparison', ['a']]],
  );
  assert.equal(textOnly!.notHere, 'c needs a toolchain this machine lacks');
  assert.equal(textOnly!.figure, null);
});

test("every API's published findings match the report's format (bench/schemas/published.schema.json)", async () => {
  const validate = newAjv().compile(publishedSchema);
  let checked = 0;
  for (const api of await loadApis()) {
    const { published } = parse(await readFile(`${api.dir}/${api.manifest.bench.scenario}`, 'utf8')) as { published?: unknown };
    if (published === undefined) continue;
    assert.ok(validate(published), `${api.manifest.name}: ${JSON.stringify(validate.errors)}`);
    checked++;
  }
  assert.ok(checked >= 1, 'no API has published findings');
});
