// The seeded documents: `perKind` documents of each kind with deterministic ObjectIds and
// payloads (payloads.js), so every run and every client sees the same collection.
import { KINDS, payload } from './payloads.js';
import type { DocumentsDataset, DocumentsScale, SeedDocument } from './model.ts';

// ObjectId = 4-byte seconds + 5 bytes + 3-byte counter. Fixed seconds (2021-03-22, the paper's
// date), the seed in the middle and the index as the counter: ids sort in insertion order and
// never collide with ids a server generates (those carry the current time).
const EPOCH_SECONDS = 1616371200;

export function seedObjectId(seed: number, index: number): string {
  const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');
  return hex(EPOCH_SECONDS, 8) + hex(0, 2) + hex(seed >>> 0, 8) + hex(index, 6);
}

/** The payload seed of the index-th document. */
export function documentPayloadSeed(scale: DocumentsScale, index: number): number {
  return (scale.seed * 1_000_003 + index) >>> 0;
}

export function generateDocuments(scale: DocumentsScale): DocumentsDataset {
  if (!Number.isInteger(scale.perKind) || scale.perKind < 1 || scale.perKind * KINDS.length > 0xffffff) {
    throw new Error(`perKind must be an integer 1..${Math.floor(0xffffff / KINDS.length)}, got ${scale.perKind}`);
  }
  const documents: SeedDocument[] = [];
  for (let index = 0; index < scale.perKind * KINDS.length; index++) {
    const kind = KINDS[index % KINDS.length]!;
    documents.push({ id: seedObjectId(scale.seed, index), kind, payload: payload(kind, documentPayloadSeed(scale, index)) });
  }
  return { scale, documents };
}
