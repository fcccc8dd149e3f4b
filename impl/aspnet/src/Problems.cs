// RFC 9457 problem details: application/problem+json bodies with exactly the members
// type, title, status, detail?, instance? and the stable type URIs of spec/openapi.yaml.
// Written here rather than with ASP.NET Core's ProblemDetails, which adds members
// (traceId, errors) the spec does not allow.

using System.Text.Json.Serialization;

namespace Fairbench.Aspnet;

/// <summary>One of the spec's problem types: a stable URI with its fixed title and status.</summary>
public sealed record ProblemType(string Type, string Title, int Status);

/// <summary>The JSON body. Null <c>detail</c>/<c>instance</c> are left out (the spec types them as strings).</summary>
public sealed record ProblemDocument(
    [property: JsonPropertyName("type")] string Type,
    [property: JsonPropertyName("title")] string Title,
    [property: JsonPropertyName("status")] int Status,
    [property: JsonPropertyName("detail"), JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Detail,
    [property: JsonPropertyName("instance"), JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Instance);

public static class Problems
{
    public const string ContentType = "application/problem+json";

    public static readonly ProblemType InvalidParameter = new("urn:fairbench:problem:invalid-parameter", "Invalid parameter", StatusCodes.Status400BadRequest);
    public static readonly ProblemType MalformedBody = new("urn:fairbench:problem:malformed-body", "Malformed request body", StatusCodes.Status400BadRequest);
    public static readonly ProblemType NotFound = new("urn:fairbench:problem:not-found", "Not found", StatusCodes.Status404NotFound);
    public static readonly ProblemType MethodNotAllowed = new("urn:fairbench:problem:method-not-allowed", "Method not allowed", StatusCodes.Status405MethodNotAllowed);
    public static readonly ProblemType PayloadTooLarge = new("urn:fairbench:problem:payload-too-large", "Payload too large", StatusCodes.Status413PayloadTooLarge);
    public static readonly ProblemType UnsupportedMediaType = new("urn:fairbench:problem:unsupported-media-type", "Unsupported media type", StatusCodes.Status415UnsupportedMediaType);
    public static readonly ProblemType Internal = new("urn:fairbench:problem:internal", "Internal server error", StatusCodes.Status500InternalServerError);

    /// <summary>
    /// The problem as an endpoint result: HTTP status = <c>status</c> member, Content-Type
    /// application/problem+json, <c>instance</c> = the request path.
    /// </summary>
    public static IResult Result(HttpContext http, ProblemType problem, string? detail = null)
    {
        var document = new ProblemDocument(problem.Type, problem.Title, problem.Status, detail, http.Request.Path.ToUriComponent());
        return TypedResults.Json(document, contentType: ContentType, statusCode: problem.Status);
    }

    /// <summary>Writes the problem from middleware (outside an endpoint).</summary>
    public static Task WriteAsync(HttpContext http, ProblemType problem, string? detail = null) =>
        Result(http, problem, detail).ExecuteAsync(http);
}
