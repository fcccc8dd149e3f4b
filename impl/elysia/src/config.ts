// The implementation contract's environment: PORT, DB_POOL_SIZE, MYSQL_URL (the tpcc API's
// database), HOST (optional). Anything missing or invalid is one ConfigError listing every problem.

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
  readonly mysql: MysqlOptions;
}

const DECIMAL = /^[0-9]+$/;

function parseMysqlUrl(raw: string): MysqlOptions {
  let url: URL;
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

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => env[name]?.trim() || undefined;
  const port = value('PORT');
  if (port === undefined) problems.push('PORT is required but not set');
  else if (!DECIMAL.test(port) || Number(port) > 65535) problems.push(`PORT must be an integer 0..65535, got ${JSON.stringify(port)}`);
  const pool = value('DB_POOL_SIZE');
  if (pool === undefined) problems.push('DB_POOL_SIZE is required but not set');
  else if (!DECIMAL.test(pool) || Number(pool) < 1) problems.push(`DB_POOL_SIZE must be a positive integer, got ${JSON.stringify(pool)}`);
  const url = value('MYSQL_URL');
  let mysql: MysqlOptions | undefined;
  if (url === undefined) problems.push('MYSQL_URL is required (the tpcc API is the only one served here)');
  else {
    try {
      mysql = parseMysqlUrl(url);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
    }
  }
  if (problems.length > 0 || mysql === undefined) throw new ConfigError(problems.join('; '));
  return { port: Number(port), host: value('HOST') ?? '127.0.0.1', poolSize: Number(pool), mysql };
}
