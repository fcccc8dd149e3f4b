// Handlers of the documents API: check the id, validate the body (joi), call the data layer,
// answer. Express 5 forwards a rejected promise to the error handler (500 problem, one log line).

import { PROBLEMS, sendProblem } from '../problem.js';
import { OBJECT_ID, documentInput } from '../schemas/documents.js';
import { hasPrototypeMember, PROTOTYPE_MEMBER } from '../json-body.js';

/** The id, or null after answering 400 invalid-parameter. */
function pathId(req, res) {
  const id = req.params.id;
  if (OBJECT_ID.test(id)) return id;
  sendProblem(res, PROBLEMS.invalidParameter, 'id must be a document id (24 lowercase hexadecimal digits)');
  return null;
}

/** The validated body, or null after answering 400 invalid-body. */
function validBody(req, res) {
  const { value, error } = documentInput.validate(req.body);
  if (!error && !hasPrototypeMember(req.body)) return value;
  sendProblem(res, PROBLEMS.invalidBody, error?.message ?? PROTOTYPE_MEMBER);
  return null;
}

const notFound = (res, id) => sendProblem(res, PROBLEMS.notFound, `document ${id} does not exist`);

export function createDocumentsHandlers(data) {
  return {
    // POST /documents
    async create(req, res) {
      const body = validBody(req, res);
      if (body === null) return;
      const document = await data.create(body);
      res.status(201).location(`/documents/${document.id}`).json(document);
    },

    // GET /documents/:id
    async get(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      const document = await data.get(id);
      if (document === null) return notFound(res, id);
      res.json(document);
    },

    // PUT /documents/:id
    async replace(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      const body = validBody(req, res);
      if (body === null) return;
      const document = await data.replace(id, body);
      if (document === null) return notFound(res, id);
      res.json(document);
    },

    // DELETE /documents/:id
    async remove(req, res) {
      const id = pathId(req, res);
      if (id === null) return;
      if (!(await data.remove(id))) return notFound(res, id);
      res.status(204).end();
    },
  };
}
