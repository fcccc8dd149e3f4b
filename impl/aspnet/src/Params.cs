// Path/argument rules shared by the REST handlers and the GraphQL resolvers
// (spec/openapi.yaml, "Path parameters"): a decimal integer written without sign or
// leading zeros, i.e. the pattern ^[1-9][0-9]*$ over ASCII digits only (not \d, which in
// .NET also matches other Unicode digits such as '１'); id in 1..2147483647 (MySQL INT),
// limit in 1..100. Anything else (abc, 1.5, 0, -1, 01, +1, " 1", 2147483648, 101, 1e3)
// breaks the rule.

using System.Globalization;
using System.Numerics;

namespace Fairbench.Aspnet;

public static class Params
{
    public const int MaxId = int.MaxValue;
    public const int MaxLimit = 100;

    public const string IdRule = "an integer from 1 to 2147483647 (decimal digits, no sign, no leading zeros)";
    public const string LimitRule = "an integer from 1 to 100 (decimal digits, no sign, no leading zeros)";

    /// <summary>Parses an id (1..2147483647); false when <paramref name="text"/> breaks the rule.</summary>
    public static bool TryParseId(string? text, out int id) => TryParseBounded(text, MaxId, out id);

    /// <summary>Parses a limit (1..100); false when <paramref name="text"/> breaks the rule.</summary>
    public static bool TryParseLimit(string? text, out int limit) => TryParseBounded(text, MaxLimit, out limit);

    /// <summary>
    /// The text a GraphQL argument value is checked as. GraphQL.NET hands an <c>ID</c> over as
    /// the string of a string literal/variable, or as an int/long/BigInteger for an integer
    /// literal/variable; an <c>Int</c> as an int. An integer's invariant decimal form is its
    /// canonical form (a negative one keeps its '-' and so fails the rule). Any other value
    /// gives null, which fails the rule.
    /// </summary>
    public static string? TextOf(object? value) => value switch
    {
        string text => text,
        int number => number.ToString(CultureInfo.InvariantCulture),
        long number => number.ToString(CultureInfo.InvariantCulture),
        BigInteger number => number.ToString(CultureInfo.InvariantCulture),
        _ => null,
    };

    private static bool TryParseBounded(string? text, int max, out int value)
    {
        value = 0;

        // More than 10 digits is out of every range here (and would overflow a long sooner or later).
        if (text is null || text.Length == 0 || text.Length > 10 || text[0] == '0')
        {
            return false;
        }

        long result = 0;
        foreach (var c in text)
        {
            if (c < '0' || c > '9')
            {
                return false;
            }

            result = (result * 10) + (c - '0');
        }

        if (result > max)
        {
            return false;
        }

        value = (int)result;
        return true;
    }
}
