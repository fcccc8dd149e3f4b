// The seeded `documents` collection: its document type and the two scales.
import type { DocumentKind, DocumentPayload } from './payloads.js';

/** A seeded document as clients see it (`id` = the `_id` ObjectId as 24 lowercase hex digits). */
export interface SeedDocument {
  readonly id: string;
  readonly kind: DocumentKind;
  readonly payload: DocumentPayload;
}

export interface DocumentsScale {
  readonly seed: number;
  /** Documents of each kind in the collection. */
  readonly perKind: number;
}

export interface DocumentsDataset {
  readonly scale: DocumentsScale;
  /** Kinds round-robin: text, list, record, table, text, ... */
  readonly documents: readonly SeedDocument[];
}

/** The collection every implementation serves from. */
export const COLLECTION = 'documents';

/**
 * The benchmark's background collection: 10 documents of each kind. The clients read,
 * replace and delete the documents they create (as the paper's did), so the seed is only
 * the collection they share. Kept small because FerretDB (SQLite) scans the whole
 * collection on every _id lookup: with 100 of each kind (~14 MB, most of it in `table`
 * documents) a lookup of a 1 KB text document took hundreds of ms, the seed's size
 * rather than the request deciding the time.
 */
export const PAPER_SCALE: DocumentsScale = { seed: 1, perKind: 10 };

/** Conformance: two of each kind (8 documents, ~0.35 MB): every flow digests the collection several times. */
export const CONFORMANCE_SCALE: DocumentsScale = { seed: 1, perKind: 2 };
