// joi schemas of the users request bodies (spec/openapi.yaml: UserRegistration,
// UserUpdate, LoginRequest). Unknown members are errors (joi's default), which
// is what keeps `role` out of a registration (no mass assignment).
import Joi from 'joi';

const name = Joi.string().min(1).max(100);
const username = Joi.string().min(3).max(64).pattern(/^[A-Za-z0-9._-]+$/);

export const registration = Joi.object({
  name: name.required(),
  surname: name.required(),
  username: username.required(),
  password: Joi.string().min(6).max(72).required(),
  // No TLD list: the spec's `format: email` is a syntax check, not a registry lookup.
  email: Joi.string().max(254).email({ tlds: { allow: false } }),
});

export const update = Joi.object({ name, surname: name }).min(1);

export const credentials = Joi.object({
  username: Joi.string().min(1).max(64).required(),
  password: Joi.string().min(1).max(72).required(),
});

// Strings are stored as given: no conversion, no trimming.
export const VALIDATION = Object.freeze({ convert: false, abortEarly: true });
