// Loads the seeded documents into MongoDB (or FerretDB): drop the collection, insert every
// document with its fixed ObjectId, in order. Implementations never create or seed anything.
import { MongoClient, ObjectId } from 'mongodb';
import { COLLECTION, type DocumentsDataset } from './model.ts';

const LOAD_ATTEMPTS = 5;

export async function loadDocuments(mongoUrl: string, data: DocumentsDataset): Promise<{ rows: Record<string, number>; milliseconds: number }> {
  const started = performance.now();
  const client = new MongoClient(mongoUrl);
  try {
    await client.connect();
    const collection = client.db().collection(COLLECTION);
    // Batches keep each insert command well under the 16 MiB message limit (a table is ~150 KB).
    const docs = data.documents.map((d) => ({ _id: new ObjectId(d.id), kind: d.kind, payload: d.payload }));
    // A reset between repetitions can meet a write the previous load left queued in the server
    // (the client gone, the request still running): it re-creates the collection between the
    // drop and the create, or adds a document. Load again until exactly the seed is there.
    for (let attempt = 1; ; attempt++) {
      await collection.drop().catch((error: unknown) => {
        // A first load finds no collection to drop (MongoDB: NamespaceNotFound, code 26).
        if ((error as { code?: number }).code !== 26) throw error;
      });
      const created = await client
        .db()
        .createCollection(COLLECTION)
        .then(
          () => true,
          (error: unknown) => {
            // NamespaceExists (48): a late write re-created it; drop it again.
            if ((error as { code?: number }).code !== 48 || attempt >= LOAD_ATTEMPTS) throw error;
            return false;
          },
        );
      if (!created) continue;
      try {
        for (let i = 0; i < docs.length; i += 50) await collection.insertMany(docs.slice(i, i + 50), { ordered: true });
      } catch (error) {
        // DuplicateKey (11000): a late create took a seeded id first.
        if ((error as { code?: number }).code !== 11000 || attempt >= LOAD_ATTEMPTS) throw error;
        continue;
      }
      const count = await collection.countDocuments();
      if (count === docs.length) break;
      if (attempt >= LOAD_ATTEMPTS)
        throw new Error(`documents: ${count} documents after loading ${docs.length}, ${LOAD_ATTEMPTS} times (something else writes to the collection)`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { rows: { documents: docs.length }, milliseconds: performance.now() - started };
  } finally {
    await client.close();
  }
}
