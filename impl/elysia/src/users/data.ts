// Data access for the users API (mongoose, as impl/express): the model of the paper's Table 1
// (password = the bcrypt hash, salt = its salt) and the queries the handlers need. Every read
// projects away password and salt except the login lookup, and every user leaves this module
// through toUser (an explicit whitelist). Hashing is Bun's own bcrypt (Bun.password, on its
// thread pool), cost 10 as the spec says.
import mongoose, { type Connection } from 'mongoose';
import type { Registration, Update, User } from './schemas.ts';

export const BCRYPT = { algorithm: 'bcrypt', cost: 10 } as const;

interface StoredUser {
  _id: mongoose.Types.ObjectId;
  name: string;
  surname: string;
  email?: string;
  username: string;
  password: string;
  salt: string;
  role: 'user' | 'admin';
}

const userSchema = new mongoose.Schema<StoredUser>(
  {
    name: { type: String, required: true },
    surname: { type: String, required: true },
    email: { type: String },
    username: { type: String, required: true, unique: true },
    password: { type: String, required: true },
    salt: { type: String, required: true },
    role: { type: String, required: true, enum: ['user', 'admin'] },
  },
  // The harness creates the collection and the unique index when it seeds; the app builds
  // neither (mongoose's production advice). No __v: stored documents keep the seed's shape.
  { collection: 'users', versionKey: false, autoIndex: false, autoCreate: false, strict: 'throw' },
);

const PUBLIC = { name: 1, surname: 1, email: 1, username: 1, role: 1 };
// A bcrypt hash is "$2b$10$" + 22 characters of salt + 31 of hash: the salt is its first 29.
const BCRYPT_SALT_LENGTH = 29;

export class UsernameTaken extends Error {}

export function toUser(doc: Omit<StoredUser, 'password' | 'salt'>): User {
  const user = { id: doc._id.toHexString(), name: doc.name, surname: doc.surname, username: doc.username, role: doc.role };
  return typeof doc.email === 'string' ? { ...user, email: doc.email } : user;
}

export type UsersData = ReturnType<typeof createUsersData>;

export function createUsersData(connection: Connection) {
  const User = connection.model<StoredUser>('User', userSchema);
  return {
    /** The first `limit` users by id. */
    async list(limit: number): Promise<User[]> {
      const docs = await User.find({}, PUBLIC).sort({ _id: 1 }).limit(limit).lean<StoredUser[]>();
      return docs.map(toUser);
    },

    /** The user or null; `id` is 24 lowercase hex digits. */
    async byId(id: string): Promise<User | null> {
      const doc = await User.findById(id, PUBLIC).lean<StoredUser>();
      return doc && toUser(doc);
    },

    /** {user, hash} for a login, or null. */
    async credentials(username: string): Promise<{ user: User; hash: string } | null> {
      const doc = await User.findOne({ username }, { ...PUBLIC, password: 1 }).lean<StoredUser>();
      return doc && { user: toUser(doc), hash: doc.password };
    },

    /** Inserts a user with the role the caller gives (never the client's); UsernameTaken on a duplicate. */
    async create({ name, surname, username, password, email }: Registration, role: 'user' | 'admin'): Promise<User> {
      const hash = await Bun.password.hash(password, BCRYPT);
      try {
        return toUser(await User.create({ name, surname, username, email, password: hash, salt: hash.slice(0, BCRYPT_SALT_LENGTH), role }));
      } catch (err) {
        // The unique index decides (no read-then-insert race): E11000 duplicate key.
        if ((err as { code?: unknown }).code === 11000) throw new UsernameTaken(username);
        throw err;
      }
    },

    /** The updated user, or null when there is none. */
    async update(id: string, changes: Update): Promise<User | null> {
      // No projection: FerretDB 1.24 answers findAndModify with `fields` "is not implemented
      // yet"; toUser drops password and salt anyway.
      const doc = await User.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after' }).lean<StoredUser>();
      return doc && toUser(doc);
    },

    /** Whether a user was deleted. */
    async remove(id: string): Promise<boolean> {
      const { deletedCount } = await User.deleteOne({ _id: id });
      return deletedCount === 1;
    },
  };
}
