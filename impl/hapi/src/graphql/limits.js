// Validation rules of the forum's GraphQL endpoint: at most MAX_ROOT_FIELDS root fields per
// operation (aliases count) and a selection depth of at most MAX_DEPTH (the fields along the
// deepest path; a root field is depth 1). Fragments, spread or inline, are expanded and add no
// depth of their own; introspection fields count like any other. Unknown fragments and cycles
// are graphql's own rules' errors: here they count as empty.

import { GraphQLError, Kind } from 'graphql';

export const MAX_DEPTH = 15;
export const MAX_ROOT_FIELDS = 10;

const MEASURING = Symbol('measuring');

/**
 * Measures selection sets of one document; each fragment is measured once (memoised), so
 * repeated spreads cost nothing and nothing grows exponentially.
 * @param {(inner: () => number) => number} fieldValue a field's measure, given its selection set's (measured only if asked)
 * @param {(values: number[]) => number} combine
 */
function measurer(context, fieldValue, combine) {
  const fragments = new Map();
  function measure(selectionSet) {
    return combine(
      selectionSet.selections.map((selection) => {
        if (selection.kind === Kind.FIELD) return fieldValue(() => (selection.selectionSet ? measure(selection.selectionSet) : 0));
        if (selection.kind === Kind.INLINE_FRAGMENT) return measure(selection.selectionSet);
        const name = selection.name.value;
        if (fragments.has(name)) return fragments.get(name) === MEASURING ? 0 : fragments.get(name);
        const fragment = context.getFragment(name);
        if (!fragment) return 0;
        fragments.set(name, MEASURING);
        const value = measure(fragment.selectionSet);
        fragments.set(name, value);
        return value;
      }),
    );
  }
  return measure;
}

const sum = (values) => values.reduce((a, b) => a + b, 0);
const deepest = (values) => Math.max(0, ...values);
const label = (operation) => (operation.name ? `Operation "${operation.name.value}"` : 'The operation');

/** A validation rule reporting an operation whose measure is over `max`. */
const limitRule = (measureOf, max, describe) => (context) => {
  const measure = measureOf(context);
  return {
    OperationDefinition(node) {
      const found = measure(node.selectionSet);
      if (found > max) context.reportError(new GraphQLError(describe(label(node), found, max), { nodes: node }));
    },
  };
};

export const maxRootFields = limitRule(
  (context) => measurer(context, () => 1, sum),
  MAX_ROOT_FIELDS,
  (what, found, max) => `${what} selects ${found} root fields; at most ${max} are allowed.`,
);

export const maxDepth = limitRule(
  (context) => measurer(context, (inner) => 1 + inner(), deepest),
  MAX_DEPTH,
  (what, found, max) => `${what} has depth ${found}; the maximum depth is ${max}.`,
);

export const LIMIT_RULES = [maxRootFields, maxDepth];
