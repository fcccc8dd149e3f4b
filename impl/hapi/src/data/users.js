// Data access for the users API (mongoose): the model of the paper's Table 1 (password =
// the bcrypt hash, salt = its salt) and the queries the handlers need, nothing else. Every
// user leaves this module through toUser, which names the public members one by one, so a
// hash or a salt never reaches an answer. The harness creates the collection and its unique
// index on username when it seeds; the model never creates either.

import bcrypt from 'bcrypt';
import mongoose from 'mongoose';

/** The seed's cost: a registration pays what the seeded users' hashes cost. */
export const BCRYPT_COST = 10;

const userSchema = new mongoose.Schema(
  {
    name: { type: String, required: true },
    surname: { type: String, required: true },
    email: { type: String },
    username: { type: String, required: true },
    password: { type: String, required: true },
    salt: { type: String, required: true },
    role: { type: String, required: true, enum: ['user', 'admin'] },
  },
  // No __v: a stored user keeps the seed's shape.
  { collection: 'users', versionKey: false, autoIndex: false, autoCreate: false, strict: 'throw' },
);

// What reads fetch: never the hash or the salt, except the login's lookup.
const PUBLIC = { name: 1, surname: 1, email: 1, username: 1, role: 1 };

/** The username is taken (the unique index refused the insert). */
export class UsernameTaken extends Error {}

/** The API's User: {id, name, surname, username, role, email?}. */
export function toUser(stored) {
  const user = { id: stored._id.toHexString(), name: stored.name, surname: stored.surname, username: stored.username, role: stored.role };
  if (typeof stored.email === 'string') user.email = stored.email;
  return user;
}

/** @param {mongoose.Connection} connection */
export function createUsersData(connection) {
  const User = connection.model('User', userSchema);
  return {
    /** The first `limit` users by id. */
    async list(limit) {
      const stored = await User.find({}, PUBLIC).sort({ _id: 1 }).limit(limit).lean();
      return stored.map(toUser);
    },

    /** The user, or null; `id` is 24 lowercase hex digits. */
    async byId(id) {
      const stored = await User.findById(id, PUBLIC).lean();
      return stored === null ? null : toUser(stored);
    },

    /** `{ user, hash }` of the username, or null: what login compares the password with. */
    async credentials(username) {
      const stored = await User.findOne({ username }, { ...PUBLIC, password: 1 }).lean();
      return stored === null ? null : { user: toUser(stored), hash: stored.password };
    },

    /** Stores a user with the role the caller gives (never the client's); UsernameTaken on a duplicate. */
    async create({ name, surname, username, password, email, role }) {
      const salt = await bcrypt.genSalt(BCRYPT_COST);
      const hash = await bcrypt.hash(password, salt);
      try {
        const created = await User.create({ name, surname, username, email, password: hash, salt, role });
        return toUser(created);
      } catch (err) {
        // The unique index decides (no read-then-insert race): E11000 duplicate key.
        if (err?.code === 11000) throw new UsernameTaken(username);
        throw err;
      }
    },

    /** Sets the given members; the updated user, or null when there is none. */
    async update(id, changes) {
      // No projection: FerretDB 1.24 does not implement findAndModify's `fields`; toUser drops the rest.
      const stored = await User.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after', lean: true });
      return stored === null ? null : toUser(stored);
    },

    /** Whether a user was deleted. */
    async remove(id) {
      const { deletedCount } = await User.deleteOne({ _id: id });
      return deletedCount === 1;
    },
  };
}
