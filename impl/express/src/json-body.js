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
