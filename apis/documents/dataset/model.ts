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
 * The benchmark's background collection, the paper's size: 100 documents of each kind
 * (~14 MB, most of it in `table` documents). The clients read, replace and delete the
 * documents they create (as the paper's did), so the seed is only the collection they
 * share. Its size does not set the times because FerretDB's `_id` lookups use its index
 * (scripts/patches/ferretdb-v1.24.0-sqlite-id-index.patch; unpatched, they scan the table).
 */
export const PAPER_SCALE: DocumentsScale = { seed: 1, perKind: 100 };

/** Conformance: two of each kind (8 documents, ~0.35 MB): every flow digests the collection several times. */
export const CONFORMANCE_SCALE: DocumentsScale = { seed: 1, perKind: 2 };
