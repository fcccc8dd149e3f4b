import assert from 'node:assert/strict';
import test from 'node:test';

import { ConfigError, loadConfig } from '../src/config.js';

const base = { PORT: '3000', DB_POOL_SIZE: '100' };

test('each API is served only when its database URL is set, and one must be', () => {
  const forumOnly = loadConfig({ ...base, MYSQL_URL: 'mysql://root:pw@127.0.0.1:3306/fairbench' });
  assert.equal(forumOnly.mysql.database, 'fairbench');
  assert.equal(forumOnly.mongoUrl, undefined);
  assert.equal(forumOnly.jwt, undefined);

  const mongoOnly = loadConfig({ ...base, MONGO_URL: 'mongodb://127.0.0.1:27017/fairbench', JWT_SECRET: 's3cret' });
  assert.equal(mongoOnly.mysql, undefined);
  assert.deepEqual(mongoOnly.jwt, { secret: 's3cret', lifetimeSeconds: 3600 });

  assert.throws(() => loadConfig(base), (err) => err instanceof ConfigError && /MYSQL_URL .*, MONGO_URL .* or POSTGRES_URL/.test(err.message));
});

test('MONGO_URL needs JWT_SECRET, a mongodb: URL with a database, and a positive token lifetime', () => {
  assert.throws(() => loadConfig({ ...base, MONGO_URL: 'mongodb://127.0.0.1:27017/db' }), /JWT_SECRET is required/);
  assert.throws(() => loadConfig({ ...base, MONGO_URL: 'mysql://127.0.0.1/db', JWT_SECRET: 'x' }), /mongodb: scheme/);
  assert.throws(() => loadConfig({ ...base, MONGO_URL: 'mongodb://127.0.0.1:27017', JWT_SECRET: 'x' }), /must name a database/);
  assert.throws(() => loadConfig({ ...base, MONGO_URL: 'mongodb://h/db', JWT_SECRET: 'x', JWT_LIFETIME_SECONDS: '0' }), /JWT_LIFETIME_SECONDS/);
  assert.equal(loadConfig({ ...base, MONGO_URL: 'mongodb://h/db', JWT_SECRET: 'x', JWT_LIFETIME_SECONDS: '60' }).jwt.lifetimeSeconds, 60);
});

test('POSTGRES_URL needs JWT_SECRET and a postgres: URL with a database', () => {
  assert.throws(() => loadConfig({ ...base, POSTGRES_URL: 'postgres://u:p@127.0.0.1:5432/db' }), /JWT_SECRET is required/);
  assert.throws(() => loadConfig({ ...base, POSTGRES_URL: 'mysql://127.0.0.1/db', JWT_SECRET: 'x' }), /postgres: scheme/);
  assert.throws(() => loadConfig({ ...base, POSTGRES_URL: 'postgres://127.0.0.1:5432', JWT_SECRET: 'x' }), /must name a database/);
  assert.equal(loadConfig({ ...base, POSTGRES_URL: 'postgres://u:p@h:5432/db', JWT_SECRET: 'x' }).postgresUrl, 'postgres://u:p@h:5432/db');
});
