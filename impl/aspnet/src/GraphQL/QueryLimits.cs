// Amplification limits for POST /graphql, as a GraphQL.NET validation rule (so a violation
// is a validation error: HTTP 400, {"errors":[...]}, nothing executed):
// - at most MaxRootFields root fields per operation: every field selection at the top of
//   the operation counts, aliased or not, with fragments (spreads and inline) expanded;
// - a selection depth of at most MaxDepth: depth = the number of fields along the deepest
//   path, a root field being depth 1, so `{ commentById(id: 1) { body } }` has depth 2.
//   Fragments are expanded and add no depth of their own; introspection fields (__schema,
//   __type, __typename) count like any other field. graphql-js's standard introspection
//   query has depth 15 and so passes.
// Every operation of the document is checked (not only the one that will run), as the
// Express implementation does. GraphQL.NET's ComplexityValidationRule (ComplexityOptions.
// MaxDepth) also measures depth, but inside a complexity analysis of the selected operation
// only; this rule states the contract's count explicitly instead.
//
// Unknown fragments and fragment cycles are GraphQL.NET's own validation errors
// (KnownFragmentNames, NoFragmentCycles); here they simply count as empty.

using GraphQL.Validation;
using GraphQLParser.AST;

namespace Fairbench.Aspnet.GraphQLApi;

public sealed class QueryLimitsRule : ValidationRuleBase
{
    public const int MaxDepth = 15;
    public const int MaxRootFields = 10;

    public static readonly QueryLimitsRule Instance = new();

    private static readonly INodeVisitor Visitor = new OperationVisitor();

    public override ValueTask<INodeVisitor?> GetPreNodeVisitorAsync(ValidationContext context) =>
        new ValueTask<INodeVisitor?>(Visitor);

    private sealed class OperationVisitor : INodeVisitor
    {
        public ValueTask EnterAsync(ASTNode node, ValidationContext context)
        {
            if (node is GraphQLOperationDefinition operation)
            {
                Check(operation, context);
            }

            return default;
        }

        public ValueTask LeaveAsync(ASTNode node, ValidationContext context) => default;
    }

    private static void Check(GraphQLOperationDefinition operation, ValidationContext context)
    {
        var measure = new SelectionMeasure(context.Document);
        var label = operation.Name is null ? "The operation" : $"Operation \"{operation.Name.StringValue}\"";

        var rootFields = measure.FieldCount(operation.SelectionSet);
        if (rootFields > MaxRootFields)
        {
            context.ReportError(new ValidationError(
                context.Document.Source,
                null,
                $"{label} selects {rootFields} root fields; at most {MaxRootFields} are allowed.",
                operation));
        }

        var depth = measure.Depth(operation.SelectionSet);
        if (depth > MaxDepth)
        {
            context.ReportError(new ValidationError(
                context.Document.Source,
                null,
                $"Query depth {depth} exceeds the maximum depth {MaxDepth}.",
                operation));
        }
    }
}

/// <summary>
/// Measures selection sets of one document with fragments expanded. Each fragment's depth
/// and field count is computed once (memoised), so repeated spreads cost nothing and
/// nothing grows exponentially; a fragment met again while it is being measured (a cycle)
/// counts as empty.
/// </summary>
public sealed class SelectionMeasure
{
    private const int InProgress = -1;

    private readonly Dictionary<string, GraphQLFragmentDefinition> _fragments = new(StringComparer.Ordinal);
    private readonly Dictionary<string, int> _depths = new(StringComparer.Ordinal);
    private readonly Dictionary<string, int> _fieldCounts = new(StringComparer.Ordinal);

    public SelectionMeasure(GraphQLDocument document)
    {
        foreach (var definition in document.Definitions)
        {
            if (definition is GraphQLFragmentDefinition fragment)
            {
                // The first definition wins, as in GraphQL.NET's FindFragmentDefinition.
                _fragments.TryAdd(fragment.FragmentName.Name.StringValue, fragment);
            }
        }
    }

    /// <summary>The number of fields along the deepest path below (and including) this selection set's fields.</summary>
    public int Depth(GraphQLSelectionSet selectionSet)
    {
        var max = 0;
        foreach (var selection in selectionSet.Selections)
        {
            var depth = selection switch
            {
                GraphQLField field => 1 + (field.SelectionSet is null ? 0 : Depth(field.SelectionSet)),
                GraphQLInlineFragment inline => Depth(inline.SelectionSet),
                GraphQLFragmentSpread spread => ViaFragment(_depths, spread, Depth),
                _ => 0,
            };
            if (depth > max)
            {
                max = depth;
            }
        }

        return max;
    }

    /// <summary>The number of field selections in this selection set, fragments expanded (aliases count).</summary>
    public int FieldCount(GraphQLSelectionSet selectionSet)
    {
        var count = 0;
        foreach (var selection in selectionSet.Selections)
        {
            count += selection switch
            {
                GraphQLField => 1,
                GraphQLInlineFragment inline => FieldCount(inline.SelectionSet),
                GraphQLFragmentSpread spread => ViaFragment(_fieldCounts, spread, FieldCount),
                _ => 0,
            };
        }

        return count;
    }

    private int ViaFragment(Dictionary<string, int> memo, GraphQLFragmentSpread spread, Func<GraphQLSelectionSet, int> measure)
    {
        var name = spread.FragmentName.Name.StringValue;
        if (memo.TryGetValue(name, out var known))
        {
            return known == InProgress ? 0 : known;
        }

        if (!_fragments.TryGetValue(name, out var fragment))
        {
            return 0;
        }

        memo[name] = InProgress;
        var value = measure(fragment.SelectionSet);
        memo[name] = value;
        return value;
    }
}
