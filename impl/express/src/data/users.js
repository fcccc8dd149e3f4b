// Data access for the users API: the mongoose model of the paper's Table 1
// (password = the bcrypt hash, salt = its salt) and the queries the handlers
// need. Every read projects away password and salt except the login lookup,
// and every user leaves this module through toUser (an explicit whitelist).
import bcrypt from 'bcrypt';
import mongoose from 'mongoose';

export const BCRYPT_COST = 10;

const userSchema = new mongoose.Schema(
  {
    name: { type: String, required: true },
    surname: { type: String, required: true },
    email: { type: String },
    username: { type: String, required: true, unique: true },
    password: { type: String, required: true },
    salt: { type: String, required: true },
    role: { type: String, required: true, enum: ['user', 'admin'] },
  },
  // The harness creates the collection and the unique index when it seeds (the
  // unique index is declared above for documentation and for mongoose's own
  // syncIndexes, not built here): building indexes from an app at start-up is
  // what mongoose's docs advise against in production, and every implementation
  // must see the same collection. No __v: stored documents keep the seed's shape.
  { collection: 'users', versionKey: false, autoIndex: false, autoCreate: false, strict: 'throw' },
);

const PUBLIC = { name: 1, surname: 1, email: 1, username: 1, role: 1 };

export class UsernameTaken extends Error {}

/** The API's User: never password or salt. */
export function toUser(doc) {
  const user = { id: doc._id.toHexString(), name: doc.name, surname: doc.surname, username: doc.username, role: doc.role };
  if (typeof doc.email === 'string') user.email = doc.email;
  return user;
}

export function createUsersData(connection = mongoose.connection) {
  const User = connection.models.User ?? connection.model('User', userSchema);
  return {
    /** The first `limit` users by id. */
    async list(limit) {
      const docs = await User.find({}, PUBLIC).sort({ _id: 1 }).limit(limit).lean();
      return docs.map(toUser);
    },

    /** User or null; `id` is a valid 24-hex ObjectId. */
    async byId(id) {
      const doc = await User.findById(id, PUBLIC).lean();
      return doc && toUser(doc);
    },

    /** {user, hash} for login, or null. */
    async credentials(username) {
      const doc = await User.findOne({ username }, { ...PUBLIC, password: 1 }).lean();
      return doc && { user: toUser(doc), hash: doc.password };
    },

    /** Inserts a user (role given by the caller, never by the client); UsernameTaken on a duplicate. */
    async create({ name, surname, username, password, email, role }) {
      const salt = await bcrypt.genSalt(BCRYPT_COST);
      const hash = await bcrypt.hash(password, salt);
      let created;
      try {
        created = await User.create({ name, surname, username, email, password: hash, salt, role });
      } catch (err) {
        // The unique index decides (no read-then-insert race): E11000 duplicate key.
        if (err?.code === 11000) throw new UsernameTaken(username);
        throw err;
      }
      return toUser(created);
    },

    /** The updated user, or null when there is none. */
    async update(id, changes) {
      // No projection: FerretDB 1.24 answers findAndModify with `fields` "is not
      // implemented yet"; toUser drops password and salt anyway.
      const doc = await User.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after', lean: true });
      return doc && toUser(doc);
    },

    /** Whether a user was deleted. */
    async remove(id) {
      const { deletedCount } = await User.deleteOne({ _id: id });
      return deletedCount === 1;
    },
  };
}
