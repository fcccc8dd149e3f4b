// Environment parsing and validation (the harness/implementation contract: PORT, MONGO_URL,
// DB_POOL_SIZE, NODE_ENV=production; HOST is optional). Hapi serves only the documents API,
// so MONGO_URL is required and MYSQL_URL / JWT_SECRET are ignored.
// Anything missing or invalid is a startup error listing every problem.

export class ConfigError extends Error {}

const DECIMAL = /^[0-9]+$/;

function required(env, name) {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is required but not set`);
  return value;
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
    mongoUrl: read(() => parseMongoUrl(required(env, 'MONGO_URL'))),
    poolSize: read(() => parsePoolSize(required(env, 'DB_POOL_SIZE'))),
  };
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return config;
}
