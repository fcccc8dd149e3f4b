// {{name.path}} placeholders in case files: a string that is exactly one
// placeholder becomes the variable's value (keeping its type: an object payload,
// a number); a placeholder inside a longer string is written as text; a
// placeholder inside a placeholder's name is resolved first ({{seed.{{kind}}}}).
export type Variables = Readonly<Record<string, unknown>>;

const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const INSIDE = /\{\{\s*([\w.-]+)\s*\}\}/g;

export function lookup(vars: Variables, path: string): unknown {
  let value: unknown = vars;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) throw new Error(`unknown variable {{${path}}}`);
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

// A placeholder inside another's name: {{seed.{{kind}}.id}} with kind = text is {{seed.text.id}}.
const NESTED = /(\{\{\s*[\w.-]*)\{\{\s*([\w.-]+)\s*\}\}/;

export function substitute(value: unknown, vars: Variables): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (let nested = NESTED.exec(text); nested; nested = NESTED.exec(text)) {
      text = text.replace(NESTED, (_, outer: string, path: string) => `${outer}${String(lookup(vars, path))}`);
    }
    const whole = WHOLE.exec(text);
    if (whole) return lookup(vars, whole[1]!);
    return text.replace(INSIDE, (_, path: string) => {
      const v = lookup(vars, path);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  }
  return value;
}

/** The value at an RFC 6901 JSON pointer ('' is the whole document). */
export function atPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let value = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !(key in value)) throw new Error(`the response has nothing at ${pointer}`);
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
