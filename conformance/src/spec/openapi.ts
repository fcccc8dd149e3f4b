// Validates every REST response against spec/openapi.yaml: openapi-backend
// routes the request to its operation and dereferences the document; Ajv
// (JSON Schema 2020-12, as OpenAPI 3.1 uses) validates the body against the
// schema declared for that status and Content-Type.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { parse } from 'yaml';
import { repoRoot } from '@fairbench/harness/paths.ts';
import type { HttpRequest, HttpResponse } from '../http.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';

interface ResponseObject {
  content?: Record<string, { schema?: object }>;
}

export class OpenApiValidator {
  private readonly ajv = newAjv();
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  private readonly api: OpenAPIBackend;

  private constructor(api: OpenAPIBackend) {
    this.api = api;
  }

  static async load(file = join(repoRoot, 'spec', 'openapi.yaml')): Promise<OpenApiValidator> {
    const definition = parse(await readFile(file, 'utf8')) as Document;
    // quick: skip openapi-backend's own definition check, which knows OpenAPI 3.0 only;
    // the 3.1 document is linted by Redocly in `make test`.
    const api = new OpenAPIBackend({ definition, quick: true, validate: false });
    await api.init();
    return new OpenApiValidator(api);
  }

  /**
   * Problems with a response to a request on a path the spec defines; null when
   * the request matches no operation (unknown paths and methods are checked as problems).
   */
  problems(req: HttpRequest, res: HttpResponse): string[] | null {
    const path = req.path.split('?')[0]!;
    const operation = this.api.router.matchOperation({ method: req.method.toLowerCase(), path, headers: {} });
    if (operation === undefined) return null;
    const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
    const declared = responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses['default'];
    const where = `${operation.operationId ?? path} → ${res.status}`;
    if (declared === undefined) return [`${where}: status ${res.status} is not declared for this operation`];
    const content = declared.content ?? {};
    if (Object.keys(content).length === 0) return res.text === '' ? [] : [`${where}: the spec declares no body, got ${res.text.length} bytes`];
    const media = content[res.mediaType];
    if (media === undefined) return [`${where}: content-type '${res.mediaType}' is not one of ${Object.keys(content).join(', ')}`];
    if (res.json === undefined) return [`${where}: body is not valid JSON: ${res.text.slice(0, 200)}`];
    return media.schema === undefined ? [] : this.validate(media.schema, res.json).map((e) => `${where}: ${e}`);
  }

  /** Problems with a body that must be an RFC 9457 problem (components.schemas.Problem). */
  problemSchemaProblems(body: unknown): string[] {
    const schema = (this.api.definition.components?.schemas as Record<string, object> | undefined)?.['Problem'];
    if (schema === undefined) return ['the spec has no components.schemas.Problem'];
    return this.validate(schema, body).map((e) => `problem ${e}`);
  }

  private validate(schema: object, body: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message ?? 'is invalid'}${paramsOf(e.params)}`);
  }
}

function paramsOf(params: unknown): string {
  if (params === null || typeof params !== 'object') return '';
  const entries = Object.entries(params).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? '' : ` (${entries.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')})`;
}
