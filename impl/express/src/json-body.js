// The JSON body parsing every API with request bodies uses: application/json
// (with optional parameters such as charset) or a 415 problem — also when the
// Content-Type is missing — then Express's JSON parser with the route's size
// limit (a larger body is a 413, invalid JSON a 400; both mapped in app.js).

import { isUtf8 } from 'node:buffer';

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
  return [requireJson, express.json({ limit, strict, verify: requireUtf8 })];
}

/**
 * The parser's verify hook: bytes that are not UTF-8 are not JSON (RFC 8259 §8.1), a 400
 * malformed-body like any other parse failure. Its decoder would replace them with U+FFFD and
 * parse what is left, so that `{"w_id":"\xff"}` became a wrong-typed member (invalid-body) and
 * a name of such bytes would be stored as U+FFFD (issue 51).
 */
function requireUtf8(req, res, bytes) {
  if (!isUtf8(bytes)) throw Object.assign(new Error('the request body is not UTF-8, so not JSON'), { status: 400, type: 'entity.parse.failed' });
}

export const PROTOTYPE_MEMBER = 'the body has a member named __proto__, which the schema does not allow';

/**
 * Whether a parsed body has a member named `__proto__` at any depth. JSON.parse keeps it as an
 * own property, but joi validates a clone, and cloning turns that member into the clone's
 * prototype: it would vanish instead of being refused (no body schema has such a member).
 * Iterative, so a deeply nested body cannot overflow the stack.
 */
export function hasPrototypeMember(body) {
  const pending = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== 'object') continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
    for (const member of Object.values(value)) if (member !== null && typeof member === 'object') pending.push(member);
  }
  return false;
}
