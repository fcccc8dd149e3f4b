// Loads the seeded documents into MongoDB (or FerretDB): drop the collection, insert every
// document with its fixed ObjectId, in order. Implementations never create or seed anything.
import { MongoClient, ObjectId } from 'mongodb';
import { COLLECTION, type DocumentsDataset } from './model.ts';

export async function loadDocuments(mongoUrl: string, data: DocumentsDataset): Promise<{ rows: Record<string, number>; milliseconds: number }> {
  const started = performance.now();
  const client = new MongoClient(mongoUrl);
  try {
    await client.connect();
    const collection = client.db().collection(COLLECTION);
    await collection.drop().catch((error: unknown) => {
      // A first load finds no collection to drop (MongoDB: NamespaceNotFound, code 26).
      if ((error as { code?: number }).code !== 26) throw error;
    });
    await client.db().createCollection(COLLECTION);
    // Batches keep each insert command well under the 16 MiB message limit (a table is ~150 KB).
    const docs = data.documents.map((d) => ({ _id: new ObjectId(d.id), kind: d.kind, payload: d.payload }));
    for (let i = 0; i < docs.length; i += 50) await collection.insertMany(docs.slice(i, i + 50), { ordered: true });
    return { rows: { documents: docs.length }, milliseconds: performance.now() - started };
  } finally {
    await client.close();
  }
}
