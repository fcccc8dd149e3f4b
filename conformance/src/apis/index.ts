// The APIs the suite knows, by name.
import type { ApiName } from '@fairbench/harness/impl/manifest.ts';
import { documents } from './documents/index.ts';
import { forum } from './forum/index.ts';
import type { ConformanceApi } from './types.ts';
import { users } from './users/index.ts';

export const conformanceApis: Partial<Record<ApiName, ConformanceApi>> = { forum, users, documents };
