import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

test('the contract env is read and checked', () => {
  const config = loadConfig({ PORT: '8080', MONGO_URL: 'mongodb://127.0.0.1:27017/documents', DB_POOL_SIZE: '100' });
  assert.deepEqual(config, { port: 8080, host: '127.0.0.1', mongoUrl: 'mongodb://127.0.0.1:27017/documents', poolSize: 100 });
  assert.throws(() => loadConfig({ PORT: 'x', MONGO_URL: 'mysql://h/db', DB_POOL_SIZE: '0' }), (err) => {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /PORT.*MONGO_URL must use the mongodb: scheme.*DB_POOL_SIZE/);
    return true;
  });
  assert.throws(() => loadConfig({ PORT: '1', DB_POOL_SIZE: '1', MYSQL_URL: 'mysql://h/db' }), /MONGO_URL is required/);
});
