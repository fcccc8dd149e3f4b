// Handlers of the documents API: validated input (the routes' joi schemas ran already) →
// data access → response. A thrown error reaches onPreResponse as a Boom 500 (src/problem.js).

import { PROBLEMS, problemError } from '../problem.js';

const notFound = (id) => problemError(PROBLEMS.notFound, `document ${id} does not exist`);

export function createDocumentsHandlers(data) {
  return {
    // POST /documents
    async create(request, h) {
      const document = await data.create(request.payload);
      return h.response(document).code(201).header('Location', `/documents/${document.id}`);
    },

    // GET /documents/{id}
    async get(request) {
      const document = await data.get(request.params.id);
      if (document === null) throw notFound(request.params.id);
      return document;
    },

    // PUT /documents/{id}
    async replace(request) {
      const document = await data.replace(request.params.id, request.payload);
      if (document === null) throw notFound(request.params.id);
      return document;
    },

    // DELETE /documents/{id}
    async remove(request, h) {
      if (!(await data.remove(request.params.id))) throw notFound(request.params.id);
      return h.response().code(204);
    },
  };
}
