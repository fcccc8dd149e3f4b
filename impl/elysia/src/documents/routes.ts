// Routes of the documents API, as an Elysia plugin: the id checked by its params schema (400
// invalid-parameter), bodies parsed by jsonBody (415/413/400 malformed-body; an empty body is
// then refused by the schema) and validated by documentInput (400 invalid-body). Any other
// method on these paths is a 405.
import { Elysia } from 'elysia';
import { jsonBody } from '../body.ts';
import { methodNotAllowed } from '../problem.ts';
import type { DocumentsHandlers } from './handlers.ts';
import { documentInput, documentParams } from './schemas.ts';

// Every valid document fits: the largest, a table, is ~150 KB (~280 KB if every character needed escaping).
const parse = jsonBody({ limit: 512 * 1024, emptyIsNull: true });

export function documentsRoutes(handlers: DocumentsHandlers) {
  return new Elysia({ name: 'documents' })
    .post(
      '/documents',
      async ({ body, set }) => {
        const document = await handlers.create(body);
        set.status = 201;
        set.headers.location = `/documents/${document.id}`;
        return document;
      },
      { parse, body: documentInput },
    )
    .all('/documents', methodNotAllowed('POST'))
    .guard({ params: documentParams }, (app) =>
      app
        .get('/documents/:id', ({ params }) => handlers.get(params.id))
        .put('/documents/:id', ({ params, body }) => handlers.replace(params.id, body), { parse, body: documentInput })
        .delete('/documents/:id', async ({ params, set }) => {
          await handlers.remove(params.id);
          set.status = 204;
        }),
    )
    .all('/documents/:id', methodNotAllowed('GET, PUT, DELETE'));
}
