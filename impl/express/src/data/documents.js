// Data access for the documents API (mongoose): the model and the four operations, nothing
// else. The harness creates and seeds the collection; the model never creates indexes.

import mongoose from 'mongoose';

const documentSchema = new mongoose.Schema(
  {
    kind: { type: String, required: true },
    // Mixed: stored and read back as sent (validated before, by the joi schema).
    payload: { type: mongoose.Schema.Types.Mixed, required: true },
  },
  { collection: 'documents', versionKey: false, autoIndex: false, autoCreate: false, minimize: false },
);

function toDocument(stored) {
  return { id: stored._id.toHexString(), kind: stored.kind, payload: stored.payload };
}

/** @param {mongoose.Connection} connection */
export function createDocumentsData(connection) {
  const Document = connection.model('Document', documentSchema);
  return {
    async create({ kind, payload }) {
      const created = await Document.create({ kind, payload });
      return toDocument(created);
    },

    /** The document or null. */
    async get(id) {
      const stored = await Document.findById(id).lean();
      return stored === null ? null : toDocument(stored);
    },

    /** Replaces kind and payload as a whole (no merge); null when there is no such document. */
    async replace(id, { kind, payload }) {
      const stored = await Document.findOneAndReplace({ _id: id }, { kind, payload }, { returnDocument: 'after', lean: true });
      return stored === null ? null : toDocument(stored);
    },

    /** Whether a document was deleted. */
    async remove(id) {
      const { deletedCount } = await Document.deleteOne({ _id: id });
      return deletedCount === 1;
    },
  };
}
