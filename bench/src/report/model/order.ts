// The report's order of cases: REST before GraphQL, then by model, then by each parameter in
// turn, numerically (the paper's order).
import type { BenchCase } from '../../record/result-document.ts';

const PROTOCOL_ORDER = ['rest', 'graphql'];

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/** Cases in the paper's order: by each parameter in turn, numerically. */
export function compareParameters(a: BenchCase['parameters'], b: BenchCase['parameters']): number {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const c = compareValues(a[k], b[k]);
    if (c !== 0) return c;
  }
  return 0;
}

export function protocolRank(protocol: string): number {
  const i = PROTOCOL_ORDER.indexOf(protocol);
  return i === -1 ? PROTOCOL_ORDER.length : i;
}
