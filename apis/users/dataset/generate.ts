// Deterministic users: the same seed gives the same ids, names, usernames, plain
// passwords, roles, salts and bcrypt hashes. The salts come from the seed too, so
// even the hashes are reproducible; they are still expensive (bcrypt cost 10 is
// ~70 ms a hash), so they are computed in parallel (bcrypt's async API runs on
// libuv's thread pool) and cached on disk, keyed by everything that goes into them.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { Faker, base, en } from '@faker-js/faker';
import bcrypt from 'bcrypt';
import { BCRYPT_COST, type SeedUser, type UsersDataset, type UsersScale } from './model.ts';

/** `.cache/seeds/` of the repository (git-ignored, like every cache). */
export const SEED_CACHE_DIR = new URL('../../../.cache/seeds/', import.meta.url).pathname;

// Every seeded id has this timestamp (2021-06-01T00:00:00Z, the forum's reference date):
// ids sort in generation order, and before any id the API creates (a later timestamp).
const OBJECT_ID_TIME = (Date.UTC(2021, 5, 1) / 1000).toString(16);
const BCRYPT_BASE64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The 22nd salt character carries only 2 of its 6 bits; these four are the canonical ones.
const BCRYPT_LAST_SALT_CHAR = '.Oeu';

type PlainUser = Omit<SeedUser, 'passwordHash'>;

function plainUsers(scale: UsersScale): PlainUser[] {
  if (!Number.isInteger(scale.users) || scale.users < 1 || scale.users > 0xffffff) throw new RangeError(`users must be 1..16777215, got ${scale.users}`);
  if (!Number.isInteger(scale.adminEvery) || scale.adminEvery < 2) throw new RangeError(`adminEvery must be an integer >= 2, got ${scale.adminEvery}`);
  const faker = new Faker({ locale: [en, base] });
  faker.seed(scale.seed);
  const machine = faker.string.hexadecimal({ length: 10, casing: 'lower', prefix: '' });
  const taken = new Set<string>();
  const users: PlainUser[] = [];
  for (let i = 1; i <= scale.users; i++) {
    const name = faker.person.firstName();
    const surname = faker.person.lastName();
    let username = faker.internet.username({ firstName: name, lastName: surname });
    // Faker repeats itself on large sets; a numeric suffix keeps usernames unique (the unique index).
    if (taken.has(username)) username = `${username}.${i}`;
    taken.add(username);
    users.push({
      id: `${OBJECT_ID_TIME}${machine}${i.toString(16).padStart(6, '0')}`,
      name,
      surname,
      email: faker.internet.email({ firstName: name, lastName: surname }).toLowerCase(),
      username,
      password: faker.internet.password({ length: 12 }),
      role: i % scale.adminEvery === 0 ? 'admin' : 'user',
      salt: `$2b$${String(BCRYPT_COST).padStart(2, '0')}$${faker.string.fromCharacters(BCRYPT_BASE64, 21)}${faker.string.fromCharacters(BCRYPT_LAST_SALT_CHAR)}`,
    });
  }
  return users;
}

async function hashAll(users: readonly PlainUser[], scale: UsersScale): Promise<string[]> {
  const key = createHash('sha256');
  for (const u of users) key.update(`${u.salt}\u0000${u.password}\n`);
  const file = `${SEED_CACHE_DIR}users-seed${scale.seed}-${scale.users}-${key.digest('hex').slice(0, 16)}.json`;
  try {
    const cached: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (Array.isArray(cached) && cached.length === users.length && cached.every((h, i) => typeof h === 'string' && h.startsWith(users[i]!.salt))) {
      return cached as string[];
    }
  } catch {
    // no usable cache: compute below
  }
  const hashes = await Promise.all(users.map((u) => bcrypt.hash(u.password, u.salt)));
  await mkdir(SEED_CACHE_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(hashes));
  await rename(tmp, file);
  return hashes;
}

export async function generateUsers(scale: UsersScale): Promise<UsersDataset> {
  const plain = plainUsers(scale);
  const hashes = await hashAll(plain, scale);
  return { scale, users: plain.map((u, i) => ({ ...u, passwordHash: hashes[i]! })) };
}
