// Environment parsing and validation (the harness/implementation contract:
// PORT, DB_POOL_SIZE, NODE_ENV=production, and one URL per database: the app
// serves each API whose database URL is set — MYSQL_URL → forum and tpcc, MONGO_URL →
// users and documents, POSTGRES_URL → sports — and needs at least one. JWT_SECRET is
// required with MONGO_URL or POSTGRES_URL (the users and sports APIs sign tokens);
// JWT_LIFETIME_SECONDS defaults to 3600.
// HOST is optional. Anything missing or invalid is a startup error with a clear message.

export class ConfigError extends Error {}

const DECIMAL = /^[0-9]+$/;

function required(env, name) {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(`${name} is required but not set`);
  }
  return value.trim();
}

function parsePort(raw) {
  if (!DECIMAL.test(raw) || Number(raw) > 65535) throw new ConfigError(`PORT must be an integer 0..65535, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function parsePoolSize(raw) {
  if (!DECIMAL.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`DB_POOL_SIZE must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

// mysql://user:pass@host:port/db -> mysql2 connection options.
function parseMysqlUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('MYSQL_URL is not a valid URL (expected mysql://user:pass@host:port/db)');
  }
  if (url.protocol !== 'mysql:') throw new ConfigError(`MYSQL_URL must use the mysql: scheme, got ${url.protocol}`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname || !database) throw new ConfigError('MYSQL_URL must name a host and a database (mysql://user:pass@host:port/db)');
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
  };
}

function parseMongoUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('MONGO_URL is not a valid URL (expected mongodb://host:port/db)');
  }
  if (url.protocol !== 'mongodb:') throw new ConfigError(`MONGO_URL must use the mongodb: scheme, got ${url.protocol}`);
  if (!url.pathname.replace(/^\//, '')) throw new ConfigError('MONGO_URL must name a database (mongodb://host:port/db)');
  return raw;
}

function parsePostgresUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('POSTGRES_URL is not a valid URL (expected postgres://user:pass@host:port/db)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError(`POSTGRES_URL must use the postgres: scheme, got ${url.protocol}`);
  if (!url.pathname.replace(/^\//, '')) throw new ConfigError('POSTGRES_URL must name a database (postgres://user:pass@host:port/db)');
  return raw;
}

function parseLifetime(raw) {
  if (raw === undefined || raw.trim() === '') return 3600;
  if (!DECIMAL.test(raw.trim()) || Number(raw) < 1) {
    throw new ConfigError(`JWT_LIFETIME_SECONDS must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

const optional = (env, name) => (env[name]?.trim() ? env[name].trim() : undefined);

/** Reads and checks every variable; one ConfigError lists all the problems. */
export function loadConfig(env = process.env) {
  const problems = [];
  const read = (parse) => {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
      return undefined;
    }
  };
  const config = {
    port: read(() => parsePort(required(env, 'PORT'))),
    host: env.HOST?.trim() || '127.0.0.1',
    mysql: optional(env, 'MYSQL_URL') && read(() => parseMysqlUrl(optional(env, 'MYSQL_URL'))),
    mongoUrl: optional(env, 'MONGO_URL') && read(() => parseMongoUrl(optional(env, 'MONGO_URL'))),
    postgresUrl: optional(env, 'POSTGRES_URL') && read(() => parsePostgresUrl(optional(env, 'POSTGRES_URL'))),
    poolSize: read(() => parsePoolSize(required(env, 'DB_POOL_SIZE'))),
  };
  if (!optional(env, 'MYSQL_URL') && !optional(env, 'MONGO_URL') && !optional(env, 'POSTGRES_URL')) {
    problems.push('set MYSQL_URL (forum, tpcc), MONGO_URL (users, documents) or POSTGRES_URL (sports): no API has a database');
  }
  if (config.mongoUrl !== undefined || config.postgresUrl !== undefined) {
    config.jwt = {
      secret: read(() => required(env, 'JWT_SECRET')),
      lifetimeSeconds: read(() => parseLifetime(env.JWT_LIFETIME_SECONDS)),
    };
  }
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return config;
}
