// Handlers of the documents API: call the data layer and answer; a missing document is a 404
// problem, a database that did not answer in time a 503. The id and the body are already
// checked by the route's schemas (routes.ts) when a handler runs.
import { mongoUnavailable } from '../mongo.ts';
import { PROBLEMS, ProblemError } from '../problem.ts';
import type { DocumentsData } from './data.ts';
import type { DocumentInput, StoredDocument } from './schemas.ts';

async function answer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (mongoUnavailable(err)) throw new ProblemError(PROBLEMS.unavailable, 'the database did not answer in time; retry later', { 'retry-after': '1' });
    throw err;
  }
}

function found<T>(id: string, value: T | null): T {
  if (value === null) throw new ProblemError(PROBLEMS.notFound, `document ${id} does not exist`);
  return value;
}

export type DocumentsHandlers = ReturnType<typeof createDocumentsHandlers>;

export function createDocumentsHandlers(data: DocumentsData) {
  return {
    create: (body: DocumentInput): Promise<StoredDocument> => answer(() => data.create(body)),
    get: async (id: string) => found(id, await answer(() => data.get(id))),
    replace: async (id: string, body: DocumentInput) => found(id, await answer(() => data.replace(id, body))),
    remove: async (id: string): Promise<void> => {
      found(id, (await answer(() => data.remove(id))) || null);
    },
  };
}
