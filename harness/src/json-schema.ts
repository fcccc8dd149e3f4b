// One Ajv set-up for the JSON Schemas the suite, the contracts and the benchmark check
// (2020-12, as OpenAPI 3.1 uses, with the standard formats such as date and date-time);
// here, at the bottom, so each of them may import it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export function newAjv(): Ajv2020 {
  // strict: false — OpenAPI documents carry keywords JSON Schema does not know (example, x-…).
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}
