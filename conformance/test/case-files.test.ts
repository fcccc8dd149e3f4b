// The case data itself: every file matches its schema, every question names a
// known operation, and the limit cases sit exactly at and over the spec's limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kind, parse, validate, type DocumentNode, type SelectionSetNode } from 'graphql';
import { loadApi } from '@fairbench/harness/api/manifest.ts';
import { expandEach, loadCaseFile } from '../src/case-files.ts';
import { loadSpecSchema } from '../src/spec/graphql.ts';

const forum = await loadApi('forum');

const MAX_ROOT_FIELDS = 10;
const MAX_DEPTH = 15;

function depth(doc: DocumentNode): number {
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const walk = (set: SelectionSetNode | undefined): number =>
    Math.max(
      0,
      ...(set?.selections ?? []).map((s) =>
        s.kind === Kind.FIELD
          ? 1 + walk(s.selectionSet)
          : s.kind === Kind.INLINE_FRAGMENT
            ? walk(s.selectionSet)
            : walk(fragments.get(s.name.value)?.selectionSet),
      ),
    );
  return Math.max(...doc.definitions.map((d) => (d.kind === Kind.OPERATION_DEFINITION ? walk(d.selectionSet) : 0)));
}

function rootFields(doc: DocumentNode): number {
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const count = (set: SelectionSetNode | undefined): number =>
    (set?.selections ?? []).reduce(
      (n, s) => n + (s.kind === Kind.FIELD ? 1 : count(s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : fragments.get(s.name.value)?.selectionSet)),
      0,
    );
  return Math.max(...doc.definitions.map((d) => (d.kind === Kind.OPERATION_DEFINITION ? count(d.selectionSet) : 0)));
}

test('forum case files match their schemas', async () => {
  for (const kind of ['operations', 'questions', 'scenarios', 'bad-input'] as const) await loadCaseFile(forum, kind);
});

test('every operation query is valid against spec/schema.graphql and selects every field', async () => {
  const schema = await loadSpecSchema();
  const { operations } = await loadCaseFile(forum, 'operations');
  for (const [name, op] of Object.entries(operations)) {
    assert.deepEqual(validate(schema, parse(op.graphql)), [], name);
    assert.ok(schema.getQueryType()!.getFields()[name], `${name} is a Query field`);
  }
});

test('questions and scenarios only ask known operations', async () => {
  const { operations } = await loadCaseFile(forum, 'operations');
  const { questions } = await loadCaseFile(forum, 'questions');
  const { scenarios } = await loadCaseFile(forum, 'scenarios');
  const asked = [...questions, ...scenarios.flatMap((s) => s.steps.flatMap((step) => ('ask' in step ? [step.ask] : [])))];
  for (const ask of asked) assert.ok(operations[ask.operation], ask.operation);
  assert.equal(new Set(questions.map((q) => q.id)).size, questions.length, 'question ids are unique');
});

test('the GraphQL limit cases are exactly at and just over the limits', async () => {
  const { cases } = await loadCaseFile(forum, 'bad-input');
  const query = (id: string) => parse(cases.find((c) => c.id === id)!.graphql!.query!);
  assert.equal(rootFields(query('graphql/root-fields-at-limit')), MAX_ROOT_FIELDS);
  assert.equal(rootFields(query('graphql/root-fields-over-limit')), MAX_ROOT_FIELDS + 1);
  assert.equal(rootFields(query('graphql/root-fields-over-limit-via-fragment')), MAX_ROOT_FIELDS + 1);
  assert.equal(depth(query('graphql/depth-at-limit')), MAX_DEPTH);
  assert.equal(depth(query('graphql/depth-over-limit')), MAX_DEPTH + 1);
  assert.equal(depth(query('graphql/depth-over-limit-via-fragments')), MAX_DEPTH + 1);
});

test('bad-input case ids are unique after expansion', async () => {
  const { cases } = await loadCaseFile(forum, 'bad-input');
  const ids = cases.flatMap(expandEach).map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
});

test('the introspection query the suite sends fits within the depth limit', async () => {
  const { INTROSPECTION_QUERY } = await import('../src/spec/graphql.ts');
  assert.ok(depth(parse(INTROSPECTION_QUERY)) <= MAX_DEPTH);
});
