package dev.fairbench.spring.forum;

import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * The contract's limits on a GraphQL document (spec/schema.graphql): at most 10 root fields
 * per operation (aliases count) and a selection depth of at most 15 (the fields along the
 * deepest path; a root field is depth 1). Fragments, spread or inline, are expanded and add no
 * depth of their own; introspection fields count like any other. Each fragment is measured
 * once (memoised), so a document that spreads fragments into fragments costs one linear pass
 * however much it would expand; unknown fragments and cycles count as empty here and are left
 * to graphql-java's validation (KnownFragmentNames, NoFragmentCycles).
 */
public final class QueryLimits {
  public static final int MAX_DEPTH = 15;
  public static final int MAX_ROOT_FIELDS = 10;
  private static final int IN_PROGRESS = -1;

  private final Map<String, FragmentDefinition> fragments = new HashMap<>();
  private final Map<String, Integer> fragmentDepths = new HashMap<>();
  private final Map<String, Integer> fragmentFieldCounts = new HashMap<>();

  private QueryLimits(Document document) {
    for (FragmentDefinition fragment : document.getDefinitionsOfType(FragmentDefinition.class)) fragments.putIfAbsent(fragment.getName(), fragment);
  }

  /** Why the document breaks a limit, or empty when every operation keeps both. */
  public static Optional<String> violation(Document document) {
    QueryLimits limits = new QueryLimits(document);
    for (OperationDefinition operation : document.getDefinitionsOfType(OperationDefinition.class)) {
      String label = operation.getName() == null ? "The operation" : "Operation \"" + operation.getName() + "\"";
      int roots = limits.fieldCount(operation.getSelectionSet());
      if (roots > MAX_ROOT_FIELDS) return Optional.of(label + " selects " + roots + " root fields; at most " + MAX_ROOT_FIELDS + " are allowed.");
      int depth = limits.depth(operation.getSelectionSet());
      if (depth > MAX_DEPTH) return Optional.of(label + " has depth " + depth + "; the maximum depth is " + MAX_DEPTH + ".");
    }
    return Optional.empty();
  }

  private int viaFragment(Map<String, Integer> memo, String name, ToIntFunction<SelectionSet> measure) {
    Integer known = memo.get(name);
    if (known != null) return known == IN_PROGRESS ? 0 : known;
    FragmentDefinition fragment = fragments.get(name);
    if (fragment == null) return 0;
    memo.put(name, IN_PROGRESS);
    int value = measure.applyAsInt(fragment.getSelectionSet());
    memo.put(name, value);
    return value;
  }

  private int depth(SelectionSet set) {
    if (set == null) return 0;
    int max = 0;
    for (Selection<?> selection : set.getSelections()) {
      int d = 0;
      if (selection instanceof Field field) d = 1 + depth(field.getSelectionSet());
      else if (selection instanceof InlineFragment inline) d = depth(inline.getSelectionSet());
      else if (selection instanceof FragmentSpread spread) d = viaFragment(fragmentDepths, spread.getName(), this::depth);
      max = Math.max(max, d);
    }
    return max;
  }

  private int fieldCount(SelectionSet set) {
    if (set == null) return 0;
    int n = 0;
    for (Selection<?> selection : set.getSelections()) {
      if (selection instanceof Field) n += 1;
      else if (selection instanceof InlineFragment inline) n += fieldCount(inline.getSelectionSet());
      else if (selection instanceof FragmentSpread spread) n += viaFragment(fragmentFieldCounts, spread.getName(), this::fieldCount);
    }
    return n;
  }
}
