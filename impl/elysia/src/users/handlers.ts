// Handlers of the users API: call the data layer and answer; refusals become problems, a
// database that did not answer in time a 503. Bodies, ids and limits are checked by the
// routes' schemas (routes.ts), the password's bytes here (JSON Schema counts characters).
import { mongoUnavailable } from '../mongo.ts';
import { PROBLEMS, ProblemError } from '../problem.ts';
import { forbidden, mayChange, unauthorized } from './auth.ts';
import { BCRYPT, UsernameTaken, type UsersData } from './data.ts';
import { OBJECT_ID, PASSWORD_MAX_BYTES, passwordFits, type Credentials, type Registration, type Update, type User } from './schemas.ts';

const BAD_CREDENTIALS = 'username or password is wrong';

async function answer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (mongoUnavailable(err)) throw new ProblemError(PROBLEMS.unavailable, 'the database did not answer in time; retry later', { 'retry-after': '1' });
    throw err;
  }
}

function checkPassword(password: string) {
  if (!passwordFits(password)) throw new ProblemError(PROBLEMS.invalidBody, `password: must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8`);
}

function found<T>(id: string, value: T | null | false): T {
  if (value === null || value === false) throw new ProblemError(PROBLEMS.notFound, `no user with id ${id}`);
  return value;
}

export type UsersHandlers = ReturnType<typeof createUsersHandlers>;

export function createUsersHandlers(data: UsersData) {
  // Compared against when the username is unknown, so that an unknown user costs the same
  // bcrypt work as a wrong password (no user enumeration by timing). Hashed once, from the start.
  const noUserHash = Bun.password.hash('no such user', BCRYPT);
  return {
    list: (limit: number) => answer(() => data.list(limit)),
    byId: (id: string) => answer(() => data.byId(id)),
    get: async (id: string) => found(id, await answer(() => data.byId(id))),

    async register(body: Registration): Promise<User> {
      checkPassword(body.password);
      try {
        return await answer(() => data.create(body, 'user'));
      } catch (err) {
        if (err instanceof UsernameTaken) throw new ProblemError(PROBLEMS.conflict, `username ${body.username} is taken`);
        throw err;
      }
    },

    /** PUT/DELETE /users/:id before the body: a valid id (400) the caller may change (403). */
    target(caller: User, id: string | undefined): string {
      if (id === undefined || !OBJECT_ID.test(id)) throw new ProblemError(PROBLEMS.invalidParameter, 'id must be a user id (24 lowercase hexadecimal digits)');
      if (!mayChange(caller, id)) throw forbidden('only the user themself or an admin may do this');
      return id;
    },

    update: async (id: string, changes: Update) => found(id, await answer(() => data.update(id, changes))),
    remove: async (id: string): Promise<void> => {
      found(id, await answer(() => data.remove(id)));
    },

    /** The caller's user and the HS256 token's claims' subject, or the same 401 for an unknown user and a wrong password. */
    async login({ username, password }: Credentials): Promise<User> {
      checkPassword(password);
      const stored = await answer(() => data.credentials(username));
      const matches = await Bun.password.verify(password, stored?.hash ?? (await noUserHash), 'bcrypt');
      if (stored === null || !matches) throw unauthorized(BAD_CREDENTIALS);
      return stored.user;
    },
  };
}
