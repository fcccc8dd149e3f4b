// Environment parsing and validation (the harness/implementation contract:
// PORT, MYSQL_URL, DB_POOL_SIZE, NODE_ENV=production; HOST is optional).
// Anything missing or invalid is a startup error with a clear message.

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
  if (!DECIMAL.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`PORT must be an integer 0..65535, got ${JSON.stringify(raw)}`);
  }
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
  if (url.protocol !== 'mysql:') {
    throw new ConfigError(`MYSQL_URL must use the mysql: scheme, got ${url.protocol}`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname || !database) {
    throw new ConfigError('MYSQL_URL must name a host and a database (mysql://user:pass@host:port/db)');
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
  };
}

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
    mysql: read(() => parseMysqlUrl(required(env, 'MYSQL_URL'))),
    poolSize: read(() => parsePoolSize(required(env, 'DB_POOL_SIZE'))),
  };
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return config;
}
