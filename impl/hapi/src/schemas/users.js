// joi schemas of the users API (spec/openapi.yaml: UserRegistration, UserUpdate,
// LoginRequest, the id and limit parameters), used by the routes' `validate` options.
// Objects refuse unknown members (joi's default): that keeps `role` out of a registration
// and `password` out of an update (no mass assignment).

import Joi from 'joi';

// bcrypt reads at most 72 bytes of a password: the limit counts UTF-8 bytes, or two
// passwords sharing their first 72 bytes would open the same account.
const PASSWORD_MAX_BYTES = 72;
const password = (minChars) =>
  Joi.string()
    .min(minChars)
    .max(PASSWORD_MAX_BYTES, 'utf8')
    .messages({ 'string.max': `"password" must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8` });
const name = Joi.string().min(1).max(100);

export const registration = Joi.object({
  name: name.required(),
  surname: name.required(),
  username: Joi.string().min(3).max(64).pattern(/^[A-Za-z0-9._-]+$/, 'username characters').required(),
  password: password(6).required(),
  // A syntax check (the spec's `format: email`), not a lookup in a list of top-level domains.
  email: Joi.string().max(254).email({ tlds: { allow: false } }),
}).required();

export const update = Joi.object({ name, surname: name }).min(1).required();

export const credentials = Joi.object({
  username: Joi.string().min(1).max(64).required(),
  password: password(1).required(),
}).required();

/** `{id}`: an ObjectId as the API writes it, 24 lowercase hex digits (mongoose would take any 12-character string too). */
export const userParams = Joi.object({
  id: Joi.string().pattern(/^[0-9a-f]{24}$/, 'user id (24 lowercase hex digits)').required(),
});

/** `?limit=`: 1..100 in canonical decimal form (no sign, no leading zero); other query members are ignored. */
export const listQuery = Joi.object({
  limit: Joi.string().pattern(/^(?:[1-9][0-9]?|100)$/, 'integer from 1 to 100'),
}).unknown(true);

export const DEFAULT_LIMIT = 100;

// Strings are checked and stored as sent: joi converts nothing (a numeric password is a 400).
export const VALIDATION = Object.freeze({ convert: false });
