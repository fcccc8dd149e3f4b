// Direct access to a MongoDB-wire database behind an API (FerretDB here, MongoDB
// elsewhere): the flows suite reads stored documents through it (db: steps), and its digest
// proves that a rejected request changed nothing.
import { createHash } from 'node:crypto';
import { MongoClient, ObjectId, type Document, type Filter } from 'mongodb';
import type { DataStore } from '../changes.ts';
import type { RecordReader } from './records.ts';

export class MongoStore implements DataStore, RecordReader {
  private readonly client: MongoClient;
  private readonly collections: readonly string[];

  private constructor(client: MongoClient, collections: readonly string[]) {
    this.client = client;
    this.collections = collections;
  }

  /** `collections` are the ones the digest covers: every collection the API owns. */
  static async connect(url: string, collections: readonly string[]): Promise<MongoStore> {
    const client = new MongoClient(url, { directConnection: true, serverSelectionTimeoutMS: 10_000 });
    await client.connect();
    return new MongoStore(client, collections);
  }

  /** The stored document as plain JSON values (ObjectId → hex, Date → ISO string), or null. */
  async findOne(collection: string, filter: Readonly<Record<string, unknown>>): Promise<unknown> {
    const doc = await this.client.db().collection(collection).findOne(toFilter(filter));
    return doc === null ? null : plain(doc);
  }

  async count(collection: string, filter: Readonly<Record<string, unknown>>): Promise<number> {
    return this.client.db().collection(collection).countDocuments(toFilter(filter));
  }

  /** SHA-256 over every document of every owned collection in _id order. */
  async digest(): Promise<string> {
    const hash = createHash('sha256');
    for (const name of this.collections) {
      hash.update(`\0${name}\0`);
      for await (const doc of this.client.db().collection(name).find({}).sort({ _id: 1 })) {
        hash.update(JSON.stringify(plain(doc)));
        hash.update('\n');
      }
    }
    return hash.digest('hex');
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

/** A 24-hex string under _id is meant as an ObjectId (case files cannot write one). */
function toFilter(filter: Readonly<Record<string, unknown>>): Filter<Document> {
  const id = filter['_id'];
  return typeof id === 'string' && OBJECT_ID.test(id) ? { ...filter, _id: new ObjectId(id) } : { ...filter };
}

export function plain(value: unknown): unknown {
  if (value instanceof ObjectId) return value.toHexString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}
