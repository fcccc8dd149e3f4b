// The documents API's payloads: the paper's four shapes, generated deterministically from a
// seed. Plain JavaScript with no imports and no Node APIs, because k6 (../bench/k6.js)
// imports it as well as the seed generator and the conformance suite: every client sends the
// same bytes for the same (kind, seed). Shapes and rules: spec/openapi.yaml, DocumentsInput.

/** The four kinds, in the paper's order (scenarios 1–4). */
export const KINDS = Object.freeze(['text', 'list', 'record', 'table']);

/** Exact sizes of each kind (the paper's): `length` is the length of every string value. */
export const SHAPES = Object.freeze({
  text: Object.freeze({ length: 1000 }),
  list: Object.freeze({ items: 100, length: 100 }),
  record: Object.freeze({ attributes: 100, length: 100 }),
  table: Object.freeze({ rows: 50, attributes: 50, length: 50 }),
});

/** Letters and digits: what the paper's "random strings" were, and what the benchmark sends. */
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Every character the spec allows in a value (U+0020..U+007E), quotes and backslash included. */
export const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

const LOWER = 'abcdefghijklmnopqrstuvwxyz';

// mulberry32, the generator bench/k6/prng.js also uses; repeated here (a few lines) so that this
// module needs no import across workspaces.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomString(random, length, alphabet) {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}

// Attribute names: a seeded three-letter prefix and a two-digit index (`qzk00`..`qzk99`):
// distinct within an object by construction, valid names (^[A-Za-z][A-Za-z0-9_]*$), and two
// payloads of different seeds (almost always) share none, so a replace that merged would show.
function attributes(random, count, length, alphabet) {
  const prefix = randomString(random, 3, LOWER);
  const object = {};
  for (let i = 0; i < count; i++) object[`${prefix}${String(i).padStart(2, '0')}`] = randomString(random, length, alphabet);
  return object;
}

/**
 * A valid payload of `kind`, the same for the same (kind, seed, alphabet) everywhere.
 * @param {'text'|'list'|'record'|'table'} kind
 * @param {number} seed an integer (taken modulo 2^32)
 * @param {string} [alphabet] the characters of the values (default ALPHANUMERIC)
 */
export function payload(kind, seed, alphabet = ALPHANUMERIC) {
  // The kind is mixed into the seed so that kinds of the same seed do not share strings.
  const random = mulberry32((Math.imul(seed >>> 0, 4) + KINDS.indexOf(kind)) >>> 0);
  switch (kind) {
    case 'text':
      return randomString(random, SHAPES.text.length, alphabet);
    case 'list':
      return Array.from({ length: SHAPES.list.items }, () => randomString(random, SHAPES.list.length, alphabet));
    case 'record':
      return attributes(random, SHAPES.record.attributes, SHAPES.record.length, alphabet);
    case 'table':
      return Array.from({ length: SHAPES.table.rows }, () => attributes(random, SHAPES.table.attributes, SHAPES.table.length, alphabet));
    default:
      throw new Error(`unknown document kind ${JSON.stringify(kind)} (one of ${KINDS.join(', ')})`);
  }
}

/** The request body of createDocument / replaceDocument: `{kind, payload}`. */
export function documentBody(kind, seed, alphabet = ALPHANUMERIC) {
  return { kind, payload: payload(kind, seed, alphabet) };
}
