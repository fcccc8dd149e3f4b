// joi schemas of the documents API (spec/openapi.yaml: DocumentsId, DocumentsInput), used by
// the routes' `validate` options the way Hapi's validation tutorial teaches.

import Joi from 'joi';

// Printable ASCII only (U+0020..U+007E): one length in every language and encoding.
const PRINTABLE = /^[\x20-\x7E]*$/;
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

const value = (length) => Joi.string().length(length).pattern(PRINTABLE, 'printable ASCII');
const attributeName = Joi.string().min(1).max(32).pattern(ATTRIBUTE_NAME, 'attribute name');
// Exactly `count` attributes, each name valid and each value `length` characters; any other key is "not allowed".
const attributes = (count, length) => Joi.object().pattern(attributeName, value(length)).length(count);

export const PAYLOADS = Object.freeze({
  text: value(1000),
  list: Joi.array().items(value(100)).length(100),
  record: attributes(100, 100),
  table: Joi.array().items(attributes(50, 50)).length(50),
});

export const KINDS = Object.keys(PAYLOADS);

/** `{kind, payload}`: the payload must have the shape of its kind; no other member. */
export const documentInput = Joi.object({
  kind: Joi.string().valid(...KINDS).required(),
  payload: Joi.any()
    .required()
    .when('kind', { switch: KINDS.map((kind) => ({ is: kind, then: PAYLOADS[kind] })) }),
}).required();

/** `{id}`: a MongoDB ObjectId as 24 lowercase hex digits (not any 12-character string, which mongoose would also take). */
export const documentParams = Joi.object({
  id: Joi.string().pattern(/^[0-9a-f]{24}$/, 'ObjectId (24 lowercase hex digits)').required(),
});
