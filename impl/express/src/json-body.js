// The JSON body parsing every API with request bodies uses: application/json
// (with optional parameters such as charset) or a 415 problem — also when the
// Content-Type is missing — then Express's JSON parser with the route's size
// limit (a larger body is a 413, invalid JSON a 400; both mapped in app.js).

import express from 'express';

import { PROBLEMS, sendProblem } from './problem.js';

const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;

/**
 * @param {{ limit: string, strict?: boolean, unsupported?: string }} options
 *   strict: false accepts any JSON value, not only objects and arrays;
 *   unsupported: the 415 problem's detail.
 */
export function jsonBody({ limit, strict = true, unsupported = 'the body must be application/json' }) {
  function requireJson(req, res, next) {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type.trim())) {
      return sendProblem(res, PROBLEMS.unsupportedMediaType, unsupported);
    }
    next();
  }
  return [requireJson, express.json({ limit, strict })];
}
