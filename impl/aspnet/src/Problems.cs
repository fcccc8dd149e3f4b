// RFC 9457 problem details through ASP.NET Core's own ProblemDetails service
// (AddProblemDetails): every problem — the handlers', the status-code pages' 404/405, the
// exception handler's 413/500/503 — is written by IProblemDetailsService, and
// CustomizeProblemDetails (ProblemSetup) makes it the contract's: the spec's stable type URI
// and title for the status, and no member beyond type, title, status, detail, instance
// (the framework's traceId extension is dropped).

using Microsoft.AspNetCore.Mvc;

namespace Fairbench.Aspnet;

/// <summary>One of the spec's problem types: a stable URI with its fixed title and status.</summary>
public sealed record ProblemType(string Type, string Title, int Status);

public static class Problems
{
    public const string ContentType = "application/problem+json";

    public static readonly ProblemType InvalidParameter = new("urn:fairbench:problem:invalid-parameter", "Invalid parameter", 400);
    public static readonly ProblemType MalformedBody = new("urn:fairbench:problem:malformed-body", "Malformed request body", 400);
    public static readonly ProblemType InvalidBody = new("urn:fairbench:problem:invalid-body", "Invalid request body", 400);
    public static readonly ProblemType Unauthorized = new("urn:fairbench:problem:unauthorized", "Unauthorized", 401);
    public static readonly ProblemType Forbidden = new("urn:fairbench:problem:forbidden", "Forbidden", 403);
    public static readonly ProblemType NotFound = new("urn:fairbench:problem:not-found", "Not found", 404);
    public static readonly ProblemType ItemNotFound = new("urn:fairbench:problem:item-not-found", "Item not found", 404);
    public static readonly ProblemType MethodNotAllowed = new("urn:fairbench:problem:method-not-allowed", "Method not allowed", 405);
    public static readonly ProblemType Conflict = new("urn:fairbench:problem:conflict", "Conflict", 409);
    public static readonly ProblemType PayloadTooLarge = new("urn:fairbench:problem:payload-too-large", "Payload too large", 413);
    public static readonly ProblemType UnsupportedMediaType = new("urn:fairbench:problem:unsupported-media-type", "Unsupported media type", 415);
    public static readonly ProblemType Internal = new("urn:fairbench:problem:internal", "Internal server error", 500);
    public static readonly ProblemType Unavailable = new("urn:fairbench:problem:unavailable", "Service unavailable", 503);

    /// <summary>The type a bare status gets (a framework-made problem: status-code pages, exception handler).</summary>
    private static readonly Dictionary<int, ProblemType> ByStatus = new[]
    {
        MalformedBody, Unauthorized, Forbidden, NotFound, MethodNotAllowed, Conflict, PayloadTooLarge,
        UnsupportedMediaType, Internal, Unavailable,
    }.ToDictionary(problem => problem.Status);

    /// <summary>An endpoint's problem result (ProblemHttpResult goes through IProblemDetailsService).</summary>
    public static IResult Result(ProblemType problem, string? detail = null) =>
        TypedResults.Problem(detail: detail, statusCode: problem.Status, title: problem.Title, type: problem.Type);

    /// <summary>Writes the problem from outside an endpoint (middleware, authentication events).</summary>
    public static Task WriteAsync(HttpContext http, ProblemType problem, string? detail = null) =>
        Result(problem, detail).ExecuteAsync(http);

    /// <summary>CustomizeProblemDetails: the contract's five members, the spec's type for the status.</summary>
    public static void Customize(ProblemDetailsContext context)
    {
        var details = context.ProblemDetails;
        details.Extensions.Clear();
        var status = details.Status ?? context.HttpContext.Response.StatusCode;
        details.Status = status;
        // A problem the framework made carries its own RFC 9110 type link: replace it by the spec's.
        if (details.Type is null || !details.Type.StartsWith("urn:fairbench:problem:", StringComparison.Ordinal))
        {
            var problem = ByStatus.GetValueOrDefault(status, Internal);
            details.Type = problem.Type;
            details.Title = problem.Title;
            details.Detail ??= status == 404 ? "no such resource" : null;
        }

        // The spec types instance as the request's path when present; the framework leaves it unset.
        details.Instance = null;
    }
}
