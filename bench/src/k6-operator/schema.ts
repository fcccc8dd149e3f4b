// k6-operator's TestRun CRD (bench/schemas/k6-operator/k6.io_testruns.yaml, vendored) as a
// validator of the manifests make k6-operator writes: what a cluster's API server with that
// CRD installed would refuse, without a cluster.
//
// The CRD's openAPIV3Schema is a Kubernetes structural schema, checked here with Ajv plus
// what the API server adds to it: an object's fields are the ones its schema lists (kubectl's
// default, strict field validation, refuses an unknown field; without it the field would be
// dropped silently) unless the schema says additionalProperties or
// x-kubernetes-preserve-unknown-fields; list-type set and map lists hold no duplicates
// (by their x-kubernetes-list-map-keys); int32 and int64 are whole numbers in range; apiVersion
// and kind are the CRD's; metadata is an ObjectMeta (the CRD leaves it to the server: a name, and
// string labels and annotations).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { schemaErrors } from '../yaml.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** bench/schemas/k6-operator/k6.io_testruns.yaml, found from this file. */
export const testRunCrdFile: string = fileURLToPath(new URL('../../schemas/k6-operator/k6.io_testruns.yaml', import.meta.url));

type Schema = Record<string, unknown>;

interface Crd {
  readonly spec: {
    readonly group: string;
    readonly names: { readonly kind: string };
    readonly versions: readonly { readonly name: string; readonly schema: { readonly openAPIV3Schema: Schema } }[];
  };
}

/** The problems of an object as a TestRun of the CRD (empty: valid), one per line's worth. */
export type TestRunCheck = (object: unknown) => string[];

export async function testRunValidator(file = testRunCrdFile, version = 'v1alpha1'): Promise<TestRunCheck> {
  const crd = parse(await readFile(file, 'utf8')) as Crd;
  const served = crd.spec.versions.find((v) => v.name === version);
  if (!served) throw new Error(`${file}: no version ${version} (it has ${crd.spec.versions.map((v) => v.name).join(', ')})`);
  const schema = structural(served.schema.openAPIV3Schema);
  const properties = schema['properties'] as Record<string, Schema>;
  properties['apiVersion'] = { type: 'string', const: `${crd.spec.group}/${version}` };
  properties['kind'] = { type: 'string', const: crd.spec.names.kind };
  properties['metadata'] = OBJECT_META;
  schema['required'] = ['apiVersion', 'kind', 'metadata', 'spec'];
  const validate = newAjv().compile(schema);
  return (object) => (validate(object) ? [] : schemaErrors(validate.errors).split('; '));
}

const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const OBJECT_META: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 253, pattern: DNS_SUBDOMAIN },
    namespace: { type: 'string', maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
    labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** The schema with the API server's reading of it made explicit (additionalProperties: false where it prunes). */
function structural(node: Schema): Schema {
  const out: Schema = { ...node };
  if (node['properties'] !== undefined) {
    out['properties'] = Object.fromEntries(Object.entries(node['properties'] as Record<string, Schema>).map(([k, v]) => [k, structural(v)]));
    if (node['additionalProperties'] === undefined && node['x-kubernetes-preserve-unknown-fields'] !== true) out['additionalProperties'] = false;
  }
  if (isSchema(node['additionalProperties'])) out['additionalProperties'] = structural(node['additionalProperties']);
  if (isSchema(node['items'])) out['items'] = structural(node['items']);
  for (const k of ['anyOf', 'allOf', 'oneOf'] as const) {
    if (Array.isArray(node[k])) out[k] = (node[k] as Schema[]).map(structural);
  }
  return out;
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function newAjv(): Ajv2020 {
  // strictTypes off: the CRD's int-or-string nodes are an anyOf without a type of their own.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv, ['date-time', 'byte']);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  // Kubernetes' own keywords: annotations for Ajv, but for the list types' uniqueness.
  ajv.addVocabulary([
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
    'x-kubernetes-int-or-string',
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
  ]);
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-type',
    type: 'array',
    schemaType: 'string',
    errors: false,
    validate: (listType: string, data: unknown[], parent?: Schema) => {
      if (listType === 'atomic') return true;
      const keys = listType === 'map' ? ((parent?.['x-kubernetes-list-map-keys'] as string[] | undefined) ?? []) : null;
      const identities = data.map((item) => JSON.stringify(keys ? keys.map((k) => (item as Record<string, unknown>)[k] ?? null) : item));
      return new Set(identities).size === identities.length;
    },
  });
  return ajv;
}
