// The documents API's inputs as Elysia (TypeBox) schemas, from spec/openapi.yaml (DocumentsId,
// DocumentsInput): a `kind` and a payload of exactly that kind's shape, no other member. The
// same rules as impl/express's joi schemas.
import { t, type Static } from 'elysia';

// Printable ASCII only (U+0020..U+007E): one length in every language and encoding.
const value = (length: number) => t.String({ minLength: length, maxLength: length, pattern: '^[\\x20-\\x7E]*$' });
// 1..32 characters, a letter first: nothing MongoDB reads as an operator or a path ($, .).
const attributeName = t.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,31}$' });
// Exactly `count` attributes, each name valid and each value `length` characters; any other key is refused.
const attributes = (count: number, length: number) =>
  t.Record(attributeName, value(length), { minProperties: count, maxProperties: count, additionalProperties: false });
const closed = { additionalProperties: false } as const;

export const PAYLOADS = {
  text: value(1000),
  list: t.Array(value(100), { minItems: 100, maxItems: 100 }),
  record: attributes(100, 100),
  table: t.Array(attributes(50, 50), { minItems: 50, maxItems: 50 }),
};

export type Kind = keyof typeof PAYLOADS;

/** One closed object per kind: the kind names the payload's shape. */
export const documentInput = t.Union([
  t.Object({ kind: t.Literal('text'), payload: PAYLOADS.text }, closed),
  t.Object({ kind: t.Literal('list'), payload: PAYLOADS.list }, closed),
  t.Object({ kind: t.Literal('record'), payload: PAYLOADS.record }, closed),
  t.Object({ kind: t.Literal('table'), payload: PAYLOADS.table }, closed),
]);

/** A MongoDB ObjectId as 24 lowercase hex digits (not any 12-character string, which the driver would also take). */
export const documentParams = t.Object({ id: t.String({ pattern: '^[0-9a-f]{24}$' }) }, closed);

export type DocumentInput = Static<typeof documentInput>;
export interface StoredDocument {
  readonly id: string;
  readonly kind: Kind;
  readonly payload: unknown;
}
