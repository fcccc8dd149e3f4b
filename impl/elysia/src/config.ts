// The implementation contract's environment: PORT, DB_POOL_SIZE, HOST (optional), and one URL
// per database: the app serves each API whose database is set — MYSQL_URL → tpcc and forum, MONGO_URL →
// users and documents, POSTGRES_URL → sports — and needs at least one. JWT_SECRET is required
// with MONGO_URL or POSTGRES_URL (the users and sports APIs sign tokens); JWT_LIFETIME_SECONDS
// defaults to 3600. Anything missing or invalid is one ConfigError listing every problem.

export class ConfigError extends Error {}

export interface MysqlOptions {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly poolSize: number;
  readonly mysql?: MysqlOptions;
  readonly mongoUrl?: string;
  readonly postgresUrl?: string;
  /** With mongoUrl or postgresUrl: the users and sports APIs' HS256 key and their tokens' lifetime. */
  readonly jwt?: JwtConfig;
}

export interface JwtConfig {
  readonly secret: string;
  readonly lifetimeSeconds: number;
}

const DECIMAL = /^[0-9]+$/;

function parseUrl(name: string, raw: string, expected: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (expected ${expected})`);
  }
}

function parseMysqlUrl(raw: string): MysqlOptions {
  const url = parseUrl('MYSQL_URL', raw, 'mysql://user:pass@host:port/db');
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

function parseMongoUrl(raw: string): string {
  const url = parseUrl('MONGO_URL', raw, 'mongodb://host:port/db');
  if (url.protocol !== 'mongodb:') throw new ConfigError(`MONGO_URL must use the mongodb: scheme, got ${url.protocol}`);
  if (!url.pathname.replace(/^\//, '')) throw new ConfigError('MONGO_URL must name a database (mongodb://host:port/db)');
  return raw;
}

function parsePostgresUrl(raw: string): string {
  const url = parseUrl('POSTGRES_URL', raw, 'postgres://user:pass@host:port/db');
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError(`POSTGRES_URL must use the postgres: scheme, got ${url.protocol}`);
  if (!url.pathname.replace(/^\//, '')) throw new ConfigError('POSTGRES_URL must name a database (postgres://user:pass@host:port/db)');
  return raw;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => env[name]?.trim() || undefined;
  const parsed = <T>(name: string, parse: (raw: string) => T): T | undefined => {
    const raw = value(name);
    if (raw === undefined) return undefined;
    try {
      return parse(raw);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
      return undefined;
    }
  };
  const port = value('PORT');
  if (port === undefined) problems.push('PORT is required but not set');
  else if (!DECIMAL.test(port) || Number(port) > 65535) problems.push(`PORT must be an integer 0..65535, got ${JSON.stringify(port)}`);
  const pool = value('DB_POOL_SIZE');
  if (pool === undefined) problems.push('DB_POOL_SIZE is required but not set');
  else if (!DECIMAL.test(pool) || Number(pool) < 1 || !Number.isSafeInteger(Number(pool))) problems.push(`DB_POOL_SIZE must be a positive integer, got ${JSON.stringify(pool)}`);
  const mysql = parsed('MYSQL_URL', parseMysqlUrl);
  const mongoUrl = parsed('MONGO_URL', parseMongoUrl);
  const postgresUrl = parsed('POSTGRES_URL', parsePostgresUrl);
  if (value('MYSQL_URL') === undefined && value('MONGO_URL') === undefined && value('POSTGRES_URL') === undefined) {
    problems.push('set MYSQL_URL (tpcc, forum), MONGO_URL (users, documents) or POSTGRES_URL (sports): no API has a database');
  }
  let jwt: JwtConfig | undefined;
  if (mongoUrl !== undefined || postgresUrl !== undefined) {
    const secret = value('JWT_SECRET');
    if (secret === undefined) problems.push('JWT_SECRET is required with MONGO_URL or POSTGRES_URL (the users and sports APIs sign tokens)');
    const lifetime = value('JWT_LIFETIME_SECONDS') ?? '3600';
    if (!DECIMAL.test(lifetime) || Number(lifetime) < 1) problems.push(`JWT_LIFETIME_SECONDS must be a positive integer, got ${JSON.stringify(lifetime)}`);
    if (secret !== undefined) jwt = { secret, lifetimeSeconds: Number(lifetime) };
  }
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return { port: Number(port), host: value('HOST') ?? '127.0.0.1', poolSize: Number(pool), mysql, mongoUrl, postgresUrl, jwt };
}
