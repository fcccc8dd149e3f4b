// Loads a generated users data set into MongoDB (FerretDB here): drops the collection,
// inserts every user as the paper's Table 1 document, and creates the unique index on
// username (the harness owns the schema; implementations do not build indexes).
import { MongoClient, ObjectId } from 'mongodb';
import type { SeedUser, UsersDataset } from './model.ts';
import type { LoadReport } from '@fairbench/harness/api/dataset.ts';

export const USERS_COLLECTION = 'users';
const BATCH = 1000;

/** The stored document: `password` holds the bcrypt hash, `salt` its salt (the paper's entity). */
export function toDocument(user: SeedUser) {
  return {
    _id: ObjectId.createFromHexString(user.id),
    name: user.name,
    surname: user.surname,
    email: user.email,
    username: user.username,
    password: user.passwordHash,
    salt: user.salt,
    role: user.role,
  };
}

export async function loadUsers(mongoUrl: string, data: UsersDataset): Promise<LoadReport> {
  const started = performance.now();
  const client = new MongoClient(mongoUrl, { directConnection: true });
  try {
    await client.connect();
    const db = client.db();
    // drop() fails when the collection does not exist; dropping the whole collection also drops its indexes.
    if ((await db.listCollections({ name: USERS_COLLECTION }, { nameOnly: true }).toArray()).length > 0) {
      await db.collection(USERS_COLLECTION).drop();
    }
    const users = db.collection(USERS_COLLECTION);
    await users.createIndex({ username: 1 }, { unique: true, name: 'username_1' });
    for (let i = 0; i < data.users.length; i += BATCH) {
      await users.insertMany(data.users.slice(i, i + BATCH).map(toDocument), { ordered: true });
    }
    return { rows: { users: data.users.length }, milliseconds: performance.now() - started };
  } finally {
    await client.close();
  }
}
