import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

const MONGO = 'mongodb://127.0.0.1:27017/users';

test('MONGO_URL serves documents and users: JWT_SECRET is then required', () => {
  const config = loadConfig({ PORT: '8080', MONGO_URL: MONGO, DB_POOL_SIZE: '100', JWT_SECRET: 's3cret' });
  assert.deepEqual(config, { port: 8080, host: '127.0.0.1', mongoUrl: MONGO, mysql: undefined, postgresUrl: undefined, poolSize: 100, jwt: { secret: 's3cret', lifetimeSeconds: 3600 } });
  assert.equal(loadConfig({ PORT: '1', MONGO_URL: MONGO, DB_POOL_SIZE: '1', JWT_SECRET: 'x', JWT_LIFETIME_SECONDS: '60' }).jwt.lifetimeSeconds, 60);
  assert.throws(() => loadConfig({ PORT: '1', MONGO_URL: MONGO, DB_POOL_SIZE: '1' }), /JWT_SECRET is required/);
  assert.throws(() => loadConfig({ PORT: '1', MONGO_URL: MONGO, DB_POOL_SIZE: '1', JWT_SECRET: 'x', JWT_LIFETIME_SECONDS: '0' }), /JWT_LIFETIME_SECONDS/);
});

test('MYSQL_URL is parsed into mysql2 options and needs no JWT_SECRET', () => {
  const config = loadConfig({ PORT: '1', DB_POOL_SIZE: '5', MYSQL_URL: 'mysql://fb:p%40ss@127.0.0.1:3307/tpcc' });
  assert.deepEqual(config.mysql, { host: '127.0.0.1', port: 3307, user: 'fb', password: 'p@ss', database: 'tpcc' });
  assert.equal(config.mongoUrl, undefined);
  assert.equal(config.jwt, undefined);
  assert.throws(() => loadConfig({ PORT: '1', DB_POOL_SIZE: '5', MYSQL_URL: 'mysql://127.0.0.1/' }), /must name a host and a database/);
});

test('POSTGRES_URL serves sports: JWT_SECRET is then required', () => {
  const url = 'postgres://fb:secret@127.0.0.1:5433/sports';
  const config = loadConfig({ PORT: '1', DB_POOL_SIZE: '7', POSTGRES_URL: url, JWT_SECRET: 'k' });
  assert.equal(config.postgresUrl, url);
  assert.deepEqual(config.jwt, { secret: 'k', lifetimeSeconds: 3600 });
  assert.equal(loadConfig({ PORT: '1', DB_POOL_SIZE: '7', POSTGRES_URL: 'postgresql://h/db', JWT_SECRET: 'k' }).postgresUrl, 'postgresql://h/db');
  assert.throws(() => loadConfig({ PORT: '1', DB_POOL_SIZE: '7', POSTGRES_URL: url }), /JWT_SECRET is required/);
  assert.throws(() => loadConfig({ PORT: '1', DB_POOL_SIZE: '7', POSTGRES_URL: 'mysql://h/db', JWT_SECRET: 'k' }), /POSTGRES_URL must use the postgres: scheme/);
  assert.throws(() => loadConfig({ PORT: '1', DB_POOL_SIZE: '7', POSTGRES_URL: 'postgres://h/', JWT_SECRET: 'k' }), /POSTGRES_URL must name a database/);
});

test('every problem is listed at once; at least one database is needed', () => {
  assert.throws(() => loadConfig({ PORT: 'x', MONGO_URL: 'mysql://h/db', DB_POOL_SIZE: '0', JWT_SECRET: 'x' }), (err) => {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /PORT.*MONGO_URL must use the mongodb: scheme.*DB_POOL_SIZE/);
    return true;
  });
  assert.throws(() => loadConfig({ PORT: '1', DB_POOL_SIZE: '1' }), /no API has a database/);
});
