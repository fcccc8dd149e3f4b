// Path/argument rules shared by the REST handlers and the GraphQL resolvers:
// a decimal integer without sign or leading zeros (^[1-9][0-9]*$),
// id in 1..2147483647 (MySQL INT), limit in 1..100.
// Each parser returns the number, or null when the value breaks the rule.

const CANONICAL_POSITIVE = /^[1-9][0-9]*$/;
export const MAX_ID = 2147483647;
export const MAX_LIMIT = 100;

function parseBounded(raw, max) {
  // GraphQL hands Int arguments over as numbers; String() of a JS integer is
  // its canonical decimal form, so both sources go through the same check.
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || text.length > 10 || !CANONICAL_POSITIVE.test(text)) return null;
  const value = Number(text);
  return value <= max ? value : null;
}

export const parseId = (raw) => parseBounded(raw, MAX_ID);
export const parseLimit = (raw) => parseBounded(raw, MAX_LIMIT);
