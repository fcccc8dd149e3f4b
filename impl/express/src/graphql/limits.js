// Validation rules for the forum GraphQL endpoint (custom, see README for why
// no library fits): at most MAX_ROOT_FIELDS root fields per operation, and a
// selection depth of at most MAX_DEPTH.
//
// Depth = the number of fields along the deepest path: a root field is depth 1,
// so `{ commentById(id: 1) { body } }` has depth 2. Fragments (spreads and
// inline) are expanded and add no depth of their own; introspection fields
// (__schema, __type, __typename) count like any other field.
// Root fields = field selections at the top of the operation, fragments
// expanded; every selection counts, aliased or not.
//
// Unknown fragments and fragment cycles are left to graphql's own rules
// (KnownFragmentNames, NoFragmentCycles); here they just count as empty.

import { GraphQLError, Kind } from 'graphql';

export const MAX_DEPTH = 15;
export const MAX_ROOT_FIELDS = 10;

const IN_PROGRESS = -1;

function operationLabel(node) {
  return node.name ? `Operation "${node.name.value}"` : 'The operation';
}

/**
 * One measurer per validation: memoises each fragment's depth and field count,
 * so repeated spreads cost nothing and nothing can grow exponentially.
 */
function createMeasurer(context) {
  const fragmentDepths = new Map();
  const fragmentFieldCounts = new Map();

  function viaFragment(memo, name, measure) {
    const known = memo.get(name);
    if (known !== undefined) return known === IN_PROGRESS ? 0 : known;
    const fragment = context.getFragment(name);
    if (!fragment) return 0;
    memo.set(name, IN_PROGRESS);
    const value = measure(fragment.selectionSet);
    memo.set(name, value);
    return value;
  }

  function depth(selectionSet) {
    let max = 0;
    for (const selection of selectionSet.selections) {
      let d = 0;
      if (selection.kind === Kind.FIELD) {
        d = 1 + (selection.selectionSet ? depth(selection.selectionSet) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        d = depth(selection.selectionSet);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        d = viaFragment(fragmentDepths, selection.name.value, depth);
      }
      if (d > max) max = d;
    }
    return max;
  }

  function fieldCount(selectionSet) {
    let n = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        n += 1;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        n += fieldCount(selection.selectionSet);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        n += viaFragment(fragmentFieldCounts, selection.name.value, fieldCount);
      }
    }
    return n;
  }

  return { depth, fieldCount };
}

/** Rejects operations with more than `max` root fields (aliases count). */
export function maxRootFieldsRule(max = MAX_ROOT_FIELDS) {
  return function MaxRootFields(context) {
    const measure = createMeasurer(context);
    return {
      OperationDefinition(node) {
        const count = measure.fieldCount(node.selectionSet);
        if (count > max) {
          context.reportError(
            new GraphQLError(`${operationLabel(node)} selects ${count} root fields; at most ${max} are allowed.`, node),
          );
        }
      },
    };
  };
}

/** Rejects operations whose selection depth exceeds `max` (root fields are depth 1). */
export function maxDepthRule(max = MAX_DEPTH) {
  return function MaxDepth(context) {
    const measure = createMeasurer(context);
    return {
      OperationDefinition(node) {
        const found = measure.depth(node.selectionSet);
        if (found > max) {
          context.reportError(
            new GraphQLError(`${operationLabel(node)} has depth ${found}; the maximum depth is ${max}.`, node),
          );
        }
      },
    };
  };
}

export const limitRules = [maxRootFieldsRule(), maxDepthRule()];
