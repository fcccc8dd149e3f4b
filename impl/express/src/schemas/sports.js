// joi schemas of the sports request bodies (spec/openapi.yaml: SportsRegistration,
// LoginRequest, SportsFieldInput, SportsReservationInput, SportsStatusInput,
// SportsRatingInput). Unknown members are errors (joi's default): no mass assignment.
import Joi from 'joi';

import { MAX_ID } from '../params.js';

export const SPORTS = ['tennis', 'padel', 'football', 'basketball', 'volleyball'];
export const STATUSES = ['pending', 'accepted', 'refused'];
const id = Joi.number().integer().min(1).max(MAX_ID);
// Free text is PostgreSQL text, which cannot hold U+0000 (spec/README.md, sports rule 12).
const NO_NUL = /^[^\u0000]*$/;

/** A string of min..max characters counted as JSON Schema counts them (code points; joi's min/max count UTF-16 units). */
function chars(min, max) {
  return Joi.string().custom((value, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    if (n > max) return helpers.error('string.max', { limit: max });
    return value;
  });
}

const name = chars(1, 100).pattern(NO_NUL);
// bcrypt reads at most 72 bytes (spec/README.md, sports rule 9): the upper limit is on the
// UTF-8 bytes, or two passwords that share their first 72 bytes would open the same account.
const PASSWORD_MAX_BYTES = 72;
const password = (min) =>
  chars(min, PASSWORD_MAX_BYTES)
    .max(PASSWORD_MAX_BYTES, 'utf8')
    .messages({ 'string.max': `"password" must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8` });

export const registration = Joi.object({
  username: Joi.string().min(3).max(64).pattern(/^[A-Za-z0-9._-]+$/).required(),
  password: password(6).required(),
  name: name.required(),
  surname: name.required(),
});

export const credentials = Joi.object({
  username: chars(1, 64).required(),
  password: password(1).required(),
});

export const field = Joi.object({
  name: name.required(),
  sport: Joi.string().valid(...SPORTS).required(),
  pricePerHour: Joi.number().integer().min(1).max(1000).required(),
});

export const reservation = Joi.object({
  fieldId: id.required(),
  date: Joi.string().pattern(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/).required(),
  startHour: Joi.number().integer().min(6).max(22).required(),
  endHour: Joi.number().integer().min(7).max(23).required(),
});

export const status = Joi.object({ status: Joi.string().valid('accepted', 'refused').required() });

export const rating = Joi.object({
  score: Joi.number().integer().min(1).max(5).required(),
  comment: chars(1, 500).pattern(NO_NUL),
});

// JSON types are not coerced ("5" is not a score); strings are stored as given.
export const VALIDATION = Object.freeze({ convert: false, abortEarly: true });

/** The rules JSON Schema cannot say: a real calendar date from today (UTC) to 2099-12-31, and 1 to 4 hours. */
export function reservationRuleBroken({ date, startHour, endHour }, today = new Date().toISOString().slice(0, 10)) {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) return `${date} is not a calendar date`;
  if (date < today) return `${date} is in the past`;
  if (date > '2099-12-31') return 'reservations end with 2099-12-31';
  if (endHour <= startHour) return 'endHour must be after startHour';
  if (endHour - startHour > 4) return 'a reservation is at most 4 hours';
  return null;
}
