// A data file in YAML, checked against its JSON Schema before anything walks it.
import { access, readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { newAjv } from '@fairbench/harness/json-schema.ts';

/** A validator's errors on one line: each path and what is wrong there. */
export function schemaErrors(errors: readonly { instancePath: string; message?: string }[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
}

/** An optional data file (an API's claims, work model, profile subsets): null when it is not there. */
export async function loadYamlIfPresent<T>(file: string, schema: object): Promise<T | null> {
  try {
    await access(file);
  } catch {
    return null;
  }
  return (await loadYaml<T>(file, schema)).data;
}

export async function loadYaml<T>(file: string, schema: object): Promise<{ data: T; text: string }> {
  const text = await readFile(file, 'utf8');
  const data: unknown = parse(text);
  const validate = newAjv().compile<T>(schema);
  if (!validate(data)) throw new Error(`${file}: ${schemaErrors(validate.errors)}`);
  return { data, text };
}
