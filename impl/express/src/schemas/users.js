// joi schemas of the users request bodies (spec/openapi.yaml: UserRegistration,
// UserUpdate, LoginRequest). Unknown members are errors (joi's default), which
// is what keeps `role` out of a registration (no mass assignment).
import Joi from 'joi';

const name = Joi.string().min(1).max(100);
const username = Joi.string().min(3).max(64).pattern(/^[A-Za-z0-9._-]+$/);
// bcrypt reads at most 72 bytes: the limit is on the UTF-8 bytes, not the characters,
// or two passwords that share their first 72 bytes would open the same account.
const PASSWORD_MAX_BYTES = 72;
const password = (minChars) =>
  Joi.string()
    .min(minChars)
    .max(PASSWORD_MAX_BYTES, 'utf8')
    .messages({ 'string.max': `"password" must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8` });

export const registration = Joi.object({
  name: name.required(),
  surname: name.required(),
  username: username.required(),
  password: password(6).required(),
  // No TLD list: the spec's `format: email` is a syntax check, not a registry lookup.
  email: Joi.string().max(254).email({ tlds: { allow: false } }),
});

export const update = Joi.object({ name, surname: name }).min(1);

export const credentials = Joi.object({
  username: Joi.string().min(1).max(64).required(),
  password: password(1).required(),
});

// Strings are stored as given: no conversion, no trimming.
export const VALIDATION = Object.freeze({ convert: false, abortEarly: true });
