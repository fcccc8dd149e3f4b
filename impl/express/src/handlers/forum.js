// REST handlers of the forum API: parameter validation -> data access -> response,
// and the forum's own error mapping. Express 5 forwards a rejected promise to the
// error handler (src/problem.js), which answers 500 problem+json and logs one line.

import { parseId, parseLimit } from '../params.js';
import { PROBLEMS, sendProblem } from '../problem.js';

function invalid(res, name) {
  const rule = name === 'limit' ? 'an integer 1..100' : 'an integer 1..2147483647';
  sendProblem(res, PROBLEMS.invalidParameter, `path parameter '${name}' must be ${rule} (no sign, no leading zeros)`);
}

// The router could not percent-decode a path parameter: name it from the path
// (/comment/{id}, /comments/{limit}, /user/{id}/comment, /user/{id}/comments/{limit}).
function undecodableName(path) {
  const segments = path.split('/');
  const bad = segments.findIndex((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
  return segments[1] === 'comments' || bad === 4 ? 'limit' : 'id';
}

export function createForumHandlers(data) {
  return {
    // Error middleware of the forum routes: a path parameter that is not valid
    // percent-encoding is a 400 naming the parameter; anything else goes on.
    undecodableParameter(err, req, res, next) {
      if (!(err instanceof URIError) || res.headersSent) return next(err);
      sendProblem(res, PROBLEMS.invalidParameter, `path parameter '${undecodableName(req.path)}' is not valid percent-encoding`);
    },

    // GET /comment/:id
    async commentById(req, res) {
      const id = parseId(req.params.id);
      if (id === null) return invalid(res, 'id');
      const comment = await data.commentById(id);
      if (comment === null) return sendProblem(res, PROBLEMS.notFound, `comment ${id} does not exist`);
      res.json(comment);
    },

    // GET /comments/:limit
    async commentsByLimit(req, res) {
      const limit = parseLimit(req.params.limit);
      if (limit === null) return invalid(res, 'limit');
      res.json(await data.commentsByLimit(limit));
    },

    // GET /user/:id/comment
    async firstCommentByUserId(req, res) {
      const id = parseId(req.params.id);
      if (id === null) return invalid(res, 'id');
      const comment = await data.firstCommentByUserId(id);
      if (comment === null) return sendProblem(res, PROBLEMS.notFound, `user ${id} does not exist or has no comment`);
      res.json(comment);
    },

    // GET /user/:id/comments/:limit
    async commentsByUserId(req, res) {
      const id = parseId(req.params.id);
      if (id === null) return invalid(res, 'id');
      const limit = parseLimit(req.params.limit);
      if (limit === null) return invalid(res, 'limit');
      const comments = await data.commentsByUserId(id, limit);
      // Only an empty join needs the existence check: [] for a user without
      // comments, 404 for a user that does not exist.
      if (comments.length === 0 && !(await data.userExists(id))) {
        return sendProblem(res, PROBLEMS.notFound, `user ${id} does not exist`);
      }
      res.json(comments);
    },
  };
}
