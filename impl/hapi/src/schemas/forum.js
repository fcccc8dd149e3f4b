// The forum's parameter rules (spec/README.md, forum rule 5), as joi schemas the REST routes'
// `validate.params` use and the GraphQL resolvers apply to their arguments: a decimal integer
// without sign or leading zeros, id 1..2147483647 (MySQL INT), limit 1..100.

import Joi from 'joi';

const MAX_ID = 2_147_483_647;
const MAX_LIMIT = 100;

const canonical = (max, name) =>
  Joi.string()
    .max(10)
    .pattern(/^[1-9][0-9]*$/, 'decimal integer without sign or leading zeros')
    .custom((value, helpers) => (Number(value) <= max ? value : helpers.error('number.max', { limit: max })))
    .messages({ 'number.max': `"${name}" must be at most ${max}` });

export const forumId = canonical(MAX_ID, 'id');
export const forumLimit = canonical(MAX_LIMIT, 'limit');

export const commentParams = Joi.object({ id: forumId.required() });
export const limitParams = Joi.object({ limit: forumLimit.required() });
export const userParams = Joi.object({ id: forumId.required() });
export const userLimitParams = Joi.object({ id: forumId.required(), limit: forumLimit.required() });

/**
 * A GraphQL argument (an Int arrives as a number, an ID as a string) checked by `schema`:
 * the number, or null when it breaks the rule. String() of a JS integer is its canonical form.
 */
export function argument(schema, raw) {
  const { error, value } = schema.validate(typeof raw === 'number' ? String(raw) : raw, { convert: false });
  return error ? null : Number(value);
}

export const VALIDATION = Object.freeze({ convert: false });
