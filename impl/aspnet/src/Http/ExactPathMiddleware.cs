// Exact paths: ASP.NET Core routing matches literal segments case-insensitively and ignores
// a trailing slash, so /COMMENT/1 and /comment/1/ would reach GET /comment/{id}. The
// contract's paths are exact (both are unknown paths, 404). Run before routing, this answers
// 404 for a path that is not exactly one of the app's route patterns (read from the
// EndpointDataSource, so nothing is listed twice): as many segments, literal segments equal
// ordinally, parameter segments not empty. Known paths go on to routing, which picks the
// endpoint or its 405.

using Microsoft.AspNetCore.Routing.Patterns;

namespace Fairbench.Aspnet.Http;

public sealed class ExactPathMiddleware(RequestDelegate next, EndpointDataSource endpoints)
{
    private string?[][]? _patterns;

    public Task InvokeAsync(HttpContext context)
    {
        _patterns ??= endpoints.Endpoints.OfType<RouteEndpoint>()
            .Select(endpoint => endpoint.RoutePattern.PathSegments
                .Select(segment => segment.IsSimple && segment.Parts[0] is RoutePatternLiteralPart literal ? literal.Content : null)
                .ToArray())
            .ToArray();
        return IsKnownPath(_patterns, context.Request.Path.Value)
            ? next(context)
            : Problems.WriteAsync(context, Problems.NotFound, "no such resource");
    }

    public static bool IsKnownPath(string?[][] patterns, string? path)
    {
        if (string.IsNullOrEmpty(path) || path[0] != '/')
        {
            return false;
        }

        var segments = path[1..].Split('/');
        return patterns.Any(pattern => pattern.Length == segments.Length && pattern.Select((literal, i) =>
            literal is null ? segments[i].Length > 0 : string.Equals(literal, segments[i], StringComparison.Ordinal)).All(ok => ok));
    }
}
