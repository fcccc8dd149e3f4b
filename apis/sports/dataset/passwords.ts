// bcrypt hashes of the seeded accounts' passwords. The salts come from the seed, so the
// hashes are reproducible; they are still slow (cost 10, ~70 ms each), so they are computed
// in parallel and cached under .cache/seeds/, keyed by everything that goes into them.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import bcrypt from 'bcrypt';
import type { Random } from './random.ts';
import { BCRYPT_COST } from './model.ts';

const SEED_CACHE_DIR = new URL('../../../.cache/seeds/', import.meta.url).pathname;
const BCRYPT_BASE64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The 22nd salt character carries only 2 of its 6 bits; these four are the canonical ones.
const LAST_SALT_CHAR = '.Oeu';

export function deterministicSalt(random: Random): string {
  let salt = `$2b$${BCRYPT_COST}$`;
  for (let i = 0; i < 21; i++) salt += random.pick([...BCRYPT_BASE64]);
  return salt + random.pick([...LAST_SALT_CHAR]);
}

/** The hash of each (password, salt), in order, from the cache when it holds them. */
export async function hashAll(entries: readonly { password: string; salt: string }[]): Promise<string[]> {
  const key = createHash('sha256');
  for (const e of entries) key.update(`${e.salt}\u0000${e.password}\n`);
  const file = `${SEED_CACHE_DIR}sports-${entries.length}-${key.digest('hex').slice(0, 16)}.json`;
  try {
    const cached: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (Array.isArray(cached) && cached.length === entries.length && cached.every((h, i) => typeof h === 'string' && h.startsWith(entries[i]!.salt))) {
      return cached as string[];
    }
  } catch {
    // no usable cache: compute below
  }
  const hashes = await Promise.all(entries.map((e) => bcrypt.hash(e.password, e.salt)));
  await mkdir(SEED_CACHE_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(hashes));
  await rename(tmp, file);
  return hashes;
}
