// The documents flows' named values ({{seed.text.id}}, {{fresh.record}}, {{bad.text_999}} in
// cases/flows.yaml): seeded documents, valid bodies the seed does not
// hold, and bodies that break exactly one rule of DocumentsInput (spec/openapi.yaml).
import type { DocumentsDataset, SeedDocument } from '../dataset/model.ts';
import { KINDS, PRINTABLE_ASCII, documentBody, payload, type DocumentKind } from '../dataset/payloads.js';

// Payload seeds far from the seeded documents' (generate.ts: seed * 1_000_003 + index).
const FRESH_SEED = 900_001;
const OTHER_SEED = 900_002;

type Body = { kind: string; payload: unknown } & Record<string, unknown>;

function byKind<T>(make: (kind: DocumentKind) => T): Record<DocumentKind, T> {
  return Object.fromEntries(KINDS.map((kind) => [kind, make(kind)])) as Record<DocumentKind, T>;
}

/** Bodies that break one rule each; the name says which. */
function badBodies(): Record<string, unknown> {
  const text = payload('text', FRESH_SEED);
  const list = payload('list', FRESH_SEED);
  const record = payload('record', FRESH_SEED);
  const table = payload('table', FRESH_SEED);
  const [firstName, firstValue] = Object.entries(record)[0]!;
  const withoutFirst = Object.fromEntries(Object.entries(record).slice(1));
  const renamed = (name: string): Body => ({ kind: 'record', payload: { [name]: firstValue, ...withoutFirst } });
  const row = table[0]!;
  return {
    text_999: { kind: 'text', payload: text.slice(1) },
    text_1001: { kind: 'text', payload: `${text}x` },
    text_not_ascii: { kind: 'text', payload: `${text.slice(1)}é` },
    text_control_char: { kind: 'text', payload: `${text.slice(1)}\n` },
    text_number: { kind: 'text', payload: 1000 },
    list_99: { kind: 'list', payload: list.slice(1) },
    list_101: { kind: 'list', payload: [...list, list[0]] },
    list_item_101: { kind: 'list', payload: [`${list[0]}x`, ...list.slice(1)] },
    list_item_number: { kind: 'list', payload: [1, ...list.slice(1)] },
    record_99: { kind: 'record', payload: withoutFirst },
    record_101: { kind: 'record', payload: { ...record, extra: firstValue } },
    record_value_99: { kind: 'record', payload: { ...record, [firstName]: firstValue.slice(1) } },
    record_name_dot: renamed('a.b'),
    record_name_dollar: renamed('$where'),
    record_name_digit_first: renamed('1abc'),
    record_name_33: renamed(`a${'b'.repeat(32)}`),
    // The name pattern holds for the whole string: not before a final newline (issue 51).
    record_name_newline: renamed('abc\n'),
    record_is_array: { kind: 'record', payload: list },
    table_49: { kind: 'table', payload: table.slice(1) },
    table_row_51: { kind: 'table', payload: [{ ...row, extra: Object.values(row)[0] }, ...table.slice(1)] },
    table_cell_51: { kind: 'table', payload: [Object.fromEntries(Object.entries(row).map(([k, v], i) => [k, i === 0 ? `${v}x` : v])), ...table.slice(1)] },
    table_row_not_object: { kind: 'table', payload: [Object.values(row), ...table.slice(1)] },
    kind_mismatch: { kind: 'list', payload: text },
    kind_unknown: { kind: 'blob', payload: text },
    kind_missing: { payload: text },
    payload_missing: { kind: 'text' },
    payload_null: { kind: 'text', payload: null },
    extra_member_id: { id: '0123456789abcdef01234567', kind: 'text', payload: text },
    extra_member_other: { kind: 'text', payload: text, owner: 'someone' },
    not_an_object: [{ kind: 'text', payload: text }],
    a_string: 'text',
    a_number: 42,
    json_null: null,
  };
}

function seedOfKind(data: DocumentsDataset, kind: DocumentKind): SeedDocument {
  return data.documents.find((d) => d.kind === kind)!;
}

export function documentsVariables(data: DocumentsDataset): Record<string, unknown> {
  return {
    kinds: [...KINDS],
    /** The first seeded document of each kind. */
    seed: byKind((kind) => seedOfKind(data, kind)),
    /** Valid bodies of each kind that no seeded document has (letters and digits). */
    fresh: byKind((kind) => documentBody(kind, FRESH_SEED)),
    /** Another valid body of each kind, with other attribute names: what a replace sends. */
    other: byKind((kind) => documentBody(kind, OTHER_SEED)),
    /** Valid bodies using every printable ASCII character, quotes and backslash included. */
    printable: byKind((kind) => documentBody(kind, FRESH_SEED, PRINTABLE_ASCII)),
    bad: badBodies(),
    /** The largest valid body: a table whose every character needs escaping in JSON (~280 KB). */
    escaped: { table: documentBody('table', FRESH_SEED, '"\\') },
    /** A valid body as JSON text, for requests that send it under another media type. */
    json: { text: JSON.stringify(documentBody('text', FRESH_SEED)) },
    /** An id no document has (a valid ObjectId). */
    unknownId: 'ffffffffffffffffffffffff',
  };
}
