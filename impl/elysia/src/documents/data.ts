// Data access for the documents API (mongoose, as impl/express and impl/hapi): the model and the
// four operations, nothing else. The harness creates and seeds the collection; the model never
// creates indexes or collections.
import mongoose, { type Connection } from 'mongoose';
import type { DocumentInput, Kind, StoredDocument } from './schemas.ts';

const documentSchema = new mongoose.Schema(
  {
    kind: { type: String, required: true },
    // Mixed: stored and read back as sent (validated before, by the route's schema).
    payload: { type: mongoose.Schema.Types.Mixed, required: true },
  },
  { collection: 'documents', versionKey: false, autoIndex: false, autoCreate: false, minimize: false },
);

interface Stored {
  _id: mongoose.Types.ObjectId;
  kind: string;
  payload: unknown;
}

const toDocument = (stored: Stored): StoredDocument => ({ id: stored._id.toHexString(), kind: stored.kind as Kind, payload: stored.payload });

export type DocumentsData = ReturnType<typeof createDocumentsData>;

export function createDocumentsData(connection: Connection) {
  const Document = connection.model<Stored>('Document', documentSchema);
  return {
    async create({ kind, payload }: DocumentInput): Promise<StoredDocument> {
      const created = await Document.create({ kind, payload });
      return toDocument(created);
    },

    /** The document or null. */
    async get(id: string): Promise<StoredDocument | null> {
      const stored = await Document.findById(id).lean<Stored>();
      return stored === null ? null : toDocument(stored);
    },

    /** Replaces kind and payload as a whole (no merge); null when there is no such document. */
    async replace(id: string, { kind, payload }: DocumentInput): Promise<StoredDocument | null> {
      const stored = await Document.findOneAndReplace({ _id: id }, { kind, payload }, { returnDocument: 'after' }).lean<Stored>();
      return stored === null ? null : toDocument(stored);
    },

    /** Whether a document was deleted. */
    async remove(id: string): Promise<boolean> {
      const { deletedCount } = await Document.deleteOne({ _id: id });
      return deletedCount === 1;
    },
  };
}
