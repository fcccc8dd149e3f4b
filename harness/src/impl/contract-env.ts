// The environment every implementation is started with (DESIGN.md, "the contract").
import { randomBytes } from 'node:crypto';
import { UsageError } from '../cli/usage.ts';
import type { DatabaseKind, DatabaseServer } from '../provision/types.ts';

/** One value for every implementation: the fairness rule is the same pool everywhere. */
export const DEFAULT_DB_POOL_SIZE = 100;

const URL_VARIABLE: Record<DatabaseKind, string> = {
  mysql: 'MYSQL_URL',
  postgres: 'POSTGRES_URL',
  mongo: 'MONGO_URL',
};

export interface ContractEnvOptions {
  readonly port: number;
  readonly databases: readonly DatabaseServer[];
  readonly poolSize?: number;
  readonly jwtSecret?: string;
}

export function contractEnv(opts: ContractEnvOptions): Record<string, string> {
  const env: Record<string, string> = {
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DB_POOL_SIZE: String(opts.poolSize ?? poolSizeFromEnv()),
    // A fresh secret per run unless the caller pins one: secrets never live in code.
    JWT_SECRET: opts.jwtSecret ?? process.env['JWT_SECRET'] ?? randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
    ASPNETCORE_ENVIRONMENT: 'Production',
    SPRING_PROFILES_ACTIVE: 'production',
  };
  for (const db of opts.databases) env[URL_VARIABLE[db.kind]] = db.url;
  return env;
}

/** DB_POOL_SIZE, or the default; another value is a usage error. */
export function poolSizeFromEnv(): number {
  const raw = process.env['DB_POOL_SIZE'];
  if (raw === undefined || raw === '') return DEFAULT_DB_POOL_SIZE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`DB_POOL_SIZE must be a positive integer, got '${raw}'`);
  return n;
}
