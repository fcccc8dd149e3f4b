// Comparing a response body (or a stored document) with what a case expects:
// exact equality or a subset, where {$type: <name>} matches any value of that kind.
const OBJECT_ID = /^[0-9a-f]{24}$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  objectId: (v) => typeof v === 'string' && OBJECT_ID.test(v),
  jwt: (v) => typeof v === 'string' && JWT.test(v),
};

function typeMatcher(expected: unknown): string | null {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return null;
  const keys = Object.keys(expected);
  return keys.length === 1 && keys[0] === '$type' ? String((expected as { $type: unknown }).$type) : null;
}

/**
 * Where actual differs from expected, as "<path>: ..." lines (empty: it matches).
 * subset: objects need only the expected keys; arrays always compare element by element.
 */
export function mismatches(expected: unknown, actual: unknown, subset: boolean, path = ''): string[] {
  const where = path || '(body)';
  const type = typeMatcher(expected);
  if (type !== null) {
    const test = TYPES[type];
    if (test === undefined) return [`${where}: unknown $type '${type}' in the case file`];
    return test(actual) ? [] : [`${where}: expected a ${type}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where}: expected an array, got ${brief(actual)}`];
    if (actual.length !== expected.length) return [`${where}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((e, i) => mismatches(e, actual[i], subset, `${path}/${i}`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${where}: expected an object, got ${brief(actual)}`];
    const exp = expected as Record<string, unknown>;
    const act = actual as Record<string, unknown>;
    const failures = Object.keys(exp).flatMap((k) => (k in act ? mismatches(exp[k], act[k], subset, `${path}/${k}`) : [`${path}/${k}: missing`]));
    if (!subset)
      failures.push(
        ...Object.keys(act)
          .filter((k) => !(k in exp))
          .map((k) => `${path}/${k}: not expected (${brief(act[k])})`),
      );
    return failures;
  }
  return Object.is(expected, actual) ? [] : [`${where}: expected ${brief(expected)}, got ${brief(actual)}`];
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** Object keys anywhere in a JSON value that are in the forbidden set. */
export function forbiddenKeysIn(value: unknown, forbidden: ReadonlySet<string>, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenKeysIn(v, forbidden, `${path}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(forbidden.has(k) ? [`${path}/${k}`] : []), ...forbiddenKeysIn(v, forbidden, `${path}/${k}`)]);
}
