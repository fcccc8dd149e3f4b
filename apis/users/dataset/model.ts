// The users collection of the paper's Table 1: _id, name, surname, email, username,
// password (the bcrypt hash), role, salt. Clients get each seeded user's plain password.

export type UserRole = 'user' | 'admin';

/** A seeded user as clients see it (the conformance suite and the k6 scripts log in with `password`). */
export interface SeedUser {
  /** The ObjectId as 24 lowercase hex digits. */
  readonly id: string;
  readonly name: string;
  readonly surname: string;
  readonly email: string;
  readonly username: string;
  /** Plain text: what a client sends to POST /auth/login. */
  readonly password: string;
  readonly role: UserRole;
  /** bcrypt (cost 10) of `password`: what the database stores in `password`. */
  readonly passwordHash: string;
  /** The bcrypt salt inside `passwordHash`, stored as `salt` like the paper's entity. */
  readonly salt: string;
}

export interface UsersDataset {
  readonly scale: UsersScale;
  /** Ordered by id ascending (ids are generated in ascending order). */
  readonly users: readonly SeedUser[];
}

/** How many users; users number adminEvery, 2*adminEvery, ... (1-based) are admins, the others plain users. */
export interface UsersScale {
  readonly seed: number;
  readonly users: number;
  readonly adminEvery: number;
}

/** bcrypt cost factor everywhere (seed and implementations): the paper's genSalt(10). */
export const BCRYPT_COST = 10;

/** The paper's order of magnitude: 1000 users (GET /users returns 100 of them). */
export const PAPER_SCALE: UsersScale = { seed: 1, users: 1000, adminEvery: 10 };

/** Enough for every conformance case (more than one page of 100) and quick to hash. */
export const CONFORMANCE_SCALE: UsersScale = { seed: 1, users: 150, adminEvery: 10 };
