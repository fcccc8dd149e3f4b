// Exact paths: ASP.NET Core routing matches literal segments case-insensitively and
// ignores a trailing slash, so /COMMENT/1 and /comment/1/ would reach GET /comment/{id}.
// The contract's paths are exact (both are unknown paths, 404). This middleware runs
// before routing and answers 404 for any path that is not exactly one of the mapped
// templates: the same number of segments, every literal segment equal (ordinal, i.e.
// case-sensitive), every parameter segment non-empty. Known paths go on to routing, which
// then picks the endpoint (or its 405 endpoint for another method).

using Fairbench.Aspnet.Routes;

namespace Fairbench.Aspnet.Http;

public sealed class ExactPathMiddleware
{
    // Each template as its segments; null stands for a parameter ("{id}").
    private static readonly string?[][] Templates = ForumPaths.All.Select(Segments).ToArray();

    private readonly RequestDelegate _next;

    public ExactPathMiddleware(RequestDelegate next)
    {
        _next = next;
    }

    public Task InvokeAsync(HttpContext context)
    {
        if (!IsKnownPath(context.Request.Path.Value))
        {
            return Problems.WriteAsync(context, Problems.NotFound, "No such resource.");
        }

        return _next(context);
    }

    /// <summary>Whether <paramref name="path"/> (decoded, as in <c>HttpRequest.Path</c>) is exactly one of the templates.</summary>
    public static bool IsKnownPath(string? path)
    {
        if (string.IsNullOrEmpty(path) || path[0] != '/')
        {
            return false;
        }

        var segments = path.Substring(1).Split('/');
        foreach (var template in Templates)
        {
            if (Matches(template, segments))
            {
                return true;
            }
        }

        return false;
    }

    private static bool Matches(string?[] template, string[] segments)
    {
        if (template.Length != segments.Length)
        {
            return false;
        }

        for (var i = 0; i < template.Length; i++)
        {
            var literal = template[i];
            if (literal is null ? segments[i].Length == 0 : !string.Equals(literal, segments[i], StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }

    private static string?[] Segments(string template) =>
        template.Substring(1).Split('/').Select(segment => segment.StartsWith('{') ? null : segment).ToArray();
}
