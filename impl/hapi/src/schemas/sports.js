// joi schemas of the sports API (spec/openapi.yaml, tag sports: SportsRegistration,
// LoginRequest, SportsFieldInput, SportsReservationInput, SportsStatusInput,
// SportsRatingInput, the id and paging parameters), used by the routes' `validate` options.
// Objects refuse unknown members (joi's default): no `role` in a sign-up, no mass assignment.
// Lengths count code points as JSON Schema does (a `u` pattern; joi's min/max count UTF-16
// units), and free text cannot hold U+0000, which PostgreSQL text cannot store (rule 12).

import Joi from 'joi';

export const SPORTS = ['tennis', 'padel', 'football', 'basketball', 'volleyball'];
export const STATUSES = ['pending', 'accepted', 'refused'];
const MAX_ID = 2147483647;
const LAST_DATE = '2099-12-31';

/** 1..max code points, none of them U+0000. */
const text = (max) => Joi.string().pattern(new RegExp(`^[^\\u0000]{1,${max}}$`, 'u'), `1 to ${max} characters without U+0000`);

// bcrypt reads 72 bytes: the upper bound counts UTF-8 bytes (rule 9), or two passwords sharing their first 72 bytes would open one account.
const password = (minChars) =>
  Joi.string()
    .pattern(new RegExp(`^[\\s\\S]{${minChars},}$`, 'u'), `at least ${minChars} characters`)
    .max(72, 'utf8')
    .messages({ 'string.max': '"password" must be at most 72 bytes in UTF-8' });

const id = Joi.number().integer().min(1).max(MAX_ID);

export const registration = Joi.object({
  username: Joi.string().min(3).max(64).pattern(/^[A-Za-z0-9._-]+$/, 'username characters').required(),
  password: password(6).required(),
  name: text(100).required(),
  surname: text(100).required(),
}).required();

export const credentials = Joi.object({
  username: Joi.string().pattern(/^[\s\S]{1,64}$/u, '1 to 64 characters').required(),
  password: password(1).required(),
}).required();

export const field = Joi.object({
  name: text(100).required(),
  sport: Joi.string().valid(...SPORTS).required(),
  pricePerHour: Joi.number().integer().min(1).max(1000).required(),
}).required();

/** The booking rules JSON Schema cannot state (rule 5): a real calendar date from today (UTC) to 2099-12-31, 1 to 4 hours. */
export function bookingRuleBroken({ date, startHour, endHour }, today = new Date().toISOString().slice(0, 10)) {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) return `date ${date} is not a calendar date`;
  if (date < today) return `date ${date} is before today (${today}, UTC)`;
  if (date > LAST_DATE) return `date ${date} is after ${LAST_DATE}`;
  if (endHour <= startHour) return 'endHour must be after startHour';
  if (endHour - startHour > 4) return 'a reservation is 1 to 4 hours long';
  return null;
}

export const reservation = Joi.object({
  fieldId: id.required(),
  date: Joi.string().pattern(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'YYYY-MM-DD').required(),
  startHour: Joi.number().integer().min(6).max(22).required(),
  endHour: Joi.number().integer().min(7).max(23).required(),
})
  .custom((value, helpers) => {
    const broken = bookingRuleBroken(value);
    return broken === null ? value : helpers.message(broken);
  })
  .required();

export const decision = Joi.object({ status: Joi.string().valid('accepted', 'refused').required() }).required();

export const rating = Joi.object({
  score: Joi.number().integer().min(1).max(5).required(),
  comment: text(500),
}).required();

/** `{id}`: 1..2147483647 in canonical decimal form (no sign, no leading zero, no exponent). */
export const isId = (value) => /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= MAX_ID;
export const idParams = Joi.object({
  id: Joi.string()
    .custom((value, helpers) => (isId(value) ? value : helpers.error('any.invalid')))
    .messages({ 'any.invalid': '"id" must be an integer from 1 to 2147483647 in canonical decimal form' })
    .required(),
});

/** A canonical decimal from 1 to max as a query string. */
const decimalUpTo = (name, max) =>
  Joi.string()
    .custom((value, helpers) => (/^[1-9][0-9]{0,5}$/.test(value) && Number(value) <= max ? value : helpers.error('any.invalid')))
    .messages({ 'any.invalid': `"${name}" must be an integer from 1 to ${max} in canonical decimal form` });

// Paging (rule 8): page 1..100000 (default 1), size 1..100 (default 20); other query members are ignored.
const PAGING = { page: decimalUpTo('page', 100000), size: decimalUpTo('size', 100) };
export const DEFAULT_PAGE = 1;
export const DEFAULT_SIZE = 20;
export const pagingQuery = Joi.object(PAGING).unknown(true);
export const fieldsQuery = Joi.object({ ...PAGING, sport: Joi.string().valid(...SPORTS) }).unknown(true);
export const reservationsQuery = Joi.object({ ...PAGING, status: Joi.string().valid(...STATUSES) }).unknown(true);

// JSON types are not coerced ("5" is not a score, "01" not an id); strings are stored as sent.
export const VALIDATION = Object.freeze({ convert: false });
