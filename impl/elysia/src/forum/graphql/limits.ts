// Validation rules of the forum's GraphQL endpoint (spec/schema.graphql): at most
// MAX_ROOT_FIELDS root fields per operation (aliases count) and a selection depth of at most
// MAX_DEPTH (the fields along the deepest path; a root field is depth 1). Fragments, spread
// or inline, are expanded and add no depth of their own; introspection fields count like any
// other. Unknown fragments and fragment cycles are graphql's own rules' errors: here they
// measure 0. Each fragment is measured once per operation, so repeated spreads cost nothing.
import { GraphQLError, Kind, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

export const MAX_DEPTH = 15;
export const MAX_ROOT_FIELDS = 10;

/** How a field's measure comes from its selection set's (`inner`, measured only if asked) and how siblings combine. */
interface Measure {
  readonly field: (inner: () => number) => number;
  readonly combine: (values: number[]) => number;
}

function measurer(context: ValidationContext, { field, combine }: Measure) {
  const fragments = new Map<string, number | 'measuring'>();
  const measure = (selectionSet: SelectionSetNode): number =>
    combine(
      selectionSet.selections.map((selection) => {
        if (selection.kind === Kind.FIELD) return field(() => (selection.selectionSet ? measure(selection.selectionSet) : 0));
        if (selection.kind === Kind.INLINE_FRAGMENT) return measure(selection.selectionSet);
        const name = selection.name.value;
        const known = fragments.get(name);
        if (known !== undefined) return known === 'measuring' ? 0 : known;
        const fragment = context.getFragment(name);
        if (!fragment) return 0;
        fragments.set(name, 'measuring');
        const value = measure(fragment.selectionSet);
        fragments.set(name, value);
        return value;
      }),
    );
  return measure;
}

/** A rule reporting each operation whose measure is over `max`. */
function limitRule(measure: Measure, max: number, describe: (operation: string, found: number) => string): ValidationRule {
  return (context) => {
    const of = measurer(context, measure);
    return {
      OperationDefinition(node) {
        const found = of(node.selectionSet);
        const operation = node.name ? `Operation "${node.name.value}"` : 'The operation';
        if (found > max) context.reportError(new GraphQLError(describe(operation, found), { nodes: node }));
      },
    };
  };
}

export const maxRootFields = limitRule(
  { field: () => 1, combine: (values) => values.reduce((a, b) => a + b, 0) },
  MAX_ROOT_FIELDS,
  (operation, found) => `${operation} selects ${found} root fields; at most ${MAX_ROOT_FIELDS} are allowed.`,
);

export const maxDepth = limitRule(
  { field: (inner) => 1 + inner(), combine: (values) => Math.max(0, ...values) },
  MAX_DEPTH,
  (operation, found) => `${operation} has depth ${found}; the maximum depth is ${MAX_DEPTH}.`,
);

export const LIMIT_RULES: readonly ValidationRule[] = [maxRootFields, maxDepth];
