// The forum's parameter rules (spec/README.md, forum rule 5) as TypeBox schemas: an id
// 1..2147483647 (MySQL INT) and a limit 1..100, each a decimal integer without sign or leading
// zeros. The range is in the pattern itself (canonicalUpTo), so the route's `params` schema
// is the whole check: "2147483648", "01", "+1", "1e3", " 1" and "１" all fail it (400
// invalid-parameter); the GraphQL resolvers apply the same patterns to their arguments.
import { t } from 'elysia';

export const MAX_ID = 2_147_483_647;
export const MAX_LIMIT = 100;

/**
 * A regular expression source matching exactly the canonical decimals 1..max: any number with
 * fewer digits than max, or max's own length and, at the first digit where it differs from
 * max, a smaller digit (then any digits), or max itself.
 */
export function canonicalUpTo(max: number): string {
  const digits = String(max);
  const n = digits.length;
  const alternatives: string[] = [];
  if (n > 1) alternatives.push(`[1-9][0-9]{0,${n - 2}}`);
  for (let i = 0; i < n; i++) {
    const low = i === 0 ? 1 : 0;
    const high = Number(digits[i]) - 1;
    if (high >= low) alternatives.push(`${digits.slice(0, i)}[${low}-${high}][0-9]{${n - 1 - i}}`);
  }
  alternatives.push(digits);
  return `^(?:${alternatives.join('|')})$`;
}

const ID_PATTERN = canonicalUpTo(MAX_ID);
const LIMIT_PATTERN = canonicalUpTo(MAX_LIMIT);

const id = t.String({ pattern: ID_PATTERN, description: `integer 1..${MAX_ID}, canonical decimal` });
const limit = t.String({ pattern: LIMIT_PATTERN, description: `integer 1..${MAX_LIMIT}, canonical decimal` });
const closed = { additionalProperties: false } as const;

export const commentParams = t.Object({ id }, closed);
export const limitParams = t.Object({ limit }, closed);
export const userParams = t.Object({ id }, closed);
export const userLimitParams = t.Object({ id, limit }, closed);

const idRule = new RegExp(ID_PATTERN);
const limitRule = new RegExp(LIMIT_PATTERN);
/** A GraphQL argument (an Int arrives as a number, an ID as a string; String() of a JS integer is its canonical form): the number, or null when it breaks the rule. */
const argument = (rule: RegExp) => (raw: unknown): number | null => {
  const text = typeof raw === 'number' ? String(raw) : raw;
  return typeof text === 'string' && rule.test(text) ? Number(text) : null;
};
export const idArgument = argument(idRule);
export const limitArgument = argument(limitRule);
