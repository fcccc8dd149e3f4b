// A data file in YAML, checked against its JSON Schema before anything walks it.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { newAjv } from '@fairbench/conformance/json-schema.ts';

export async function loadYaml<T>(file: string, schema: object): Promise<{ data: T; text: string }> {
  const text = await readFile(file, 'utf8');
  const data: unknown = parse(text);
  const validate = newAjv().compile<T>(schema);
  if (!validate(data)) throw new Error(`${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ')}`);
  return { data, text };
}
