// The users API's inputs as Elysia (TypeBox) schemas, from spec/openapi.yaml (UserRegistration,
// UserUpdate, LoginRequest, UserId, the limit parameter): closed objects (Elysia with normalize off
// treats every object schema so; stated here all the same), so a `role` (or any
// other unknown member) is a 400 and never reaches the database (no mass assignment). Strings
// are stored as given: no conversion, no trimming.
import { t, type Static } from 'elysia';

const name = t.String({ minLength: 1, maxLength: 100 });
const closed = { additionalProperties: false } as const;

// bcrypt reads at most 72 bytes: the rule is on the UTF-8 bytes, not the characters, or two
// passwords sharing their first 72 bytes would open the same account. JSON Schema (and so
// TypeBox) counts characters only: the bytes are checked by passwordFits (handlers.ts).
export const PASSWORD_MAX_BYTES = 72;
export const passwordFits = (password: string) => Buffer.byteLength(password, 'utf8') <= PASSWORD_MAX_BYTES;

export const registration = t.Object(
  {
    name,
    surname: name,
    username: t.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    password: t.String({ minLength: 6, maxLength: PASSWORD_MAX_BYTES }),
    email: t.Optional(t.String({ format: 'email', maxLength: 254 })),
  },
  closed,
);

export const update = t.Object({ name: t.Optional(name), surname: t.Optional(name) }, { ...closed, minProperties: 1 });

export const credentials = t.Object(
  { username: t.String({ minLength: 1, maxLength: 64 }), password: t.String({ minLength: 1, maxLength: PASSWORD_MAX_BYTES }) },
  closed,
);

/** A MongoDB ObjectId as 24 lowercase hex digits (mongoose would also take any 12-character string). */
export const OBJECT_ID = /^[0-9a-f]{24}$/;
export const userParams = t.Object({ id: t.String({ pattern: OBJECT_ID.source }) }, closed);

/** limit: absent (100) or 1..100 in canonical decimal form (no sign, no leading zero). */
export const listQuery = t.Object({ limit: t.Optional(t.String({ pattern: '^(?:[1-9][0-9]?|100)$' })) });
export const DEFAULT_LIMIT = 100;

export type Registration = Static<typeof registration>;
export type Update = Static<typeof update>;
export type Credentials = Static<typeof credentials>;

/** The API's User: never the password hash or the salt. */
export interface User {
  readonly id: string;
  readonly name: string;
  readonly surname: string;
  readonly username: string;
  readonly role: 'user' | 'admin';
  readonly email?: string;
}
