// POST /graphql, handled here rather than by GraphQL.Server.Transports.AspNetCore so that
// every status code is the contract's (spec/openapi.yaml, /graphql):
//
//   Content-Type not application/json            -> 415 problem unsupported-media-type
//   body over 64 KiB (65536 bytes)                -> 413 problem payload-too-large
//   body not valid JSON                           -> 400 problem malformed-body
//   body not an object / no string query /        -> 400 {"errors":[...]} (no "data")
//     variables not an object / operationName not a string
//   syntax error, validation error, variables     -> 400 {"errors":[...]} (no "data")
//     that do not coerce, unknown operationName,
//     several operations and none named, more than
//     10 root fields, depth over 15 (QueryLimitsRule)
//   executed                                      -> 200 {"data":{...}, "errors"?:[...]}
//     (BAD_USER_INPUT field errors included)
//
// GraphQL.NET marks a result Executed once execution has started. A request error found
// at execution time (e.g. a mutation on a schema that has none) leaves data null; every
// root field of the schema is nullable, so a null data can only mean such an error: it is
// answered as a request error too (400, no "data").
//
// An empty body is treated as {} (like body-parser's default in the Express implementation):
// "Must provide query string.", 400.

using System.Buffers;
using Fairbench.Aspnet.Http;
using System.Text.Json;
using GraphQL;
using GraphQL.Execution;
using GraphQL.SystemTextJson;
using GraphQL.Validation;
using GraphQLParser.Exceptions;

namespace Fairbench.Aspnet.GraphQLApi;

public sealed class GraphQLEndpoint
{
    /// <summary>The largest request body accepted, in bytes (64 KiB).</summary>
    public const int MaxBodyBytes = 65536;

    private const string JsonContentType = "application/json; charset=utf-8";

    private readonly ForumSchema _schema;
    private readonly ILogger<GraphQLEndpoint> _logger;
    private readonly IDocumentExecuter _executer;
    private readonly IValidationRule[] _validationRules = DocumentValidator.CoreRules.Append(QueryLimitsRule.Instance).ToArray();

    // GraphQL.NET's System.Text.Json serializer, registered by AddGraphQL (ForumRoutes).
    private readonly IGraphQLTextSerializer _serializer;

    public GraphQLEndpoint(ForumSchema schema, IDocumentExecuter executer, IGraphQLTextSerializer serializer, ILogger<GraphQLEndpoint> logger)
    {
        _schema = schema;
        _executer = executer;
        _serializer = serializer;
        _logger = logger;
    }

    public async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;

        if (!IsJsonMediaType(request.ContentType))
        {
            await Problems.WriteAsync(context, Problems.UnsupportedMediaType, "Content-Type must be application/json.");
            return;
        }

        var body = await ReadBodyAsync(request, context.RequestAborted);
        if (body is null)
        {
            await Problems.WriteAsync(context, Problems.PayloadTooLarge, $"The request body is over {MaxBodyBytes} bytes.");
            return;
        }

        if (body.Length == 0)
        {
            await WriteResultAsync(context, RequestError("Must provide query string."), StatusCodes.Status400BadRequest);
            return;
        }

        // Not UTF-8 is not JSON (JsonBody.IsUtf8: the parser would not notice it inside a string).
        if (!JsonBody.IsUtf8(WithoutBom(body).Span))
        {
            await Problems.WriteAsync(context, Problems.MalformedBody, "The request body is not UTF-8, so not JSON.");
            return;
        }

        JsonDocument json;
        try
        {
            json = JsonDocument.Parse(WithoutBom(body));
        }
        catch (JsonException)
        {
            await Problems.WriteAsync(context, Problems.MalformedBody, "The request body is not valid JSON.");
            return;
        }

        using (json)
        {
            var shapeError = ReadRequest(json.RootElement, out var query, out var variablesJson, out var operationName);
            if (shapeError is not null)
            {
                await WriteResultAsync(context, RequestError(shapeError), StatusCodes.Status400BadRequest);
                return;
            }

            Inputs? variables = null;
            if (variablesJson is { } variablesElement)
            {
                try
                {
                    variables = _serializer.ReadNode<Inputs>(variablesElement);
                }
                catch (Exception ex) when (ex is JsonException or NotImplementedException or InvalidOperationException)
                {
                    // A JSON number no .NET numeric type holds (e.g. 1e400).
                    await WriteResultAsync(context, RequestError("Variables are invalid: " + ex.Message), StatusCodes.Status400BadRequest);
                    return;
                }
            }

            var options = new ExecutionOptions
            {
                Schema = _schema,
                Query = query,
                OperationName = operationName,
                Variables = variables,
                ValidationRules = _validationRules,
                ThrowOnUnhandledException = false,
                UnhandledExceptionDelegate = OnUnhandledExceptionAsync,
            };

            var result = await _executer.ExecuteAsync(options);

            if (result.Executed && result.Data is not null)
            {
                await WriteResultAsync(context, result, StatusCodes.Status200OK);
                return;
            }

            // A request error: the errors only, no "data" key (Executed = false).
            var errors = result.Errors is { Count: > 0 } ? result.Errors : null;
            var requestError = errors is null
                ? RequestError("The request could not be executed.")
                : new ExecutionResult { Errors = errors };
            await WriteResultAsync(context, requestError, StatusCodes.Status400BadRequest);
        }
    }

    /// <summary>application/json, with or without parameters (charset=utf-8, ...); case-insensitive.</summary>
    public static bool IsJsonMediaType(string? contentType)
    {
        if (string.IsNullOrEmpty(contentType))
        {
            return false;
        }

        var semicolon = contentType.IndexOf(';');
        var mediaType = (semicolon >= 0 ? contentType[..semicolon] : contentType).Trim();
        return string.Equals(mediaType, "application/json", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>
    /// Checks the shape of a GraphQL-over-HTTP request body: an object with a string
    /// <c>query</c>, <c>variables</c> an object or null, <c>operationName</c> a string or null.
    /// Returns the error message, or null when the shape is right.
    /// </summary>
    public static string? ReadRequest(JsonElement root, out string query, out JsonElement? variables, out string? operationName)
    {
        query = string.Empty;
        variables = null;
        operationName = null;

        if (root.ValueKind != JsonValueKind.Object)
        {
            return "The request body must be a JSON object with a string \"query\".";
        }

        if (!root.TryGetProperty("query", out var queryElement) || queryElement.ValueKind != JsonValueKind.String)
        {
            return "Must provide query string.";
        }

        query = queryElement.GetString() ?? string.Empty;

        if (root.TryGetProperty("variables", out var variablesElement) && variablesElement.ValueKind != JsonValueKind.Null)
        {
            if (variablesElement.ValueKind != JsonValueKind.Object)
            {
                return "Variables must be a JSON object.";
            }

            variables = variablesElement;
        }

        if (root.TryGetProperty("operationName", out var operationNameElement) && operationNameElement.ValueKind != JsonValueKind.Null)
        {
            if (operationNameElement.ValueKind != JsonValueKind.String)
            {
                return "operationName must be a string.";
            }

            operationName = operationNameElement.GetString();
        }

        return null;
    }

    /// <summary>The body, or null when it is over <see cref="MaxBodyBytes"/>.</summary>
    private static async Task<byte[]?> ReadBodyAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        if (request.ContentLength > MaxBodyBytes)
        {
            return null;
        }

        using var buffer = new MemoryStream();
        var chunk = ArrayPool<byte>.Shared.Rent(16 * 1024);
        try
        {
            while (true)
            {
                // Counted here (Kestrel's own limit is the largest route's plus JsonBody.DrainBytes);
                // the rest of a body over the limit is read before the 413, so that the client gets it.
                var read = await request.Body.ReadAsync(chunk.AsMemory(), cancellationToken);
                if (read == 0)
                {
                    break;
                }

                if (buffer.Length + read > MaxBodyBytes)
                {
                    await JsonBody.DrainAsync(request.Body, chunk, cancellationToken);
                    return null;
                }

                buffer.Write(chunk, 0, read);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(chunk);
        }

        return buffer.ToArray();
    }

    // A UTF-8 byte order mark is allowed before the JSON text (RFC 8259 §8.1 lets parsers ignore it).
    private static ReadOnlyMemory<byte> WithoutBom(byte[] body) =>
        body.Length >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF
            ? new ReadOnlyMemory<byte>(body, 3, body.Length - 3)
            : new ReadOnlyMemory<byte>(body);

    private static ExecutionResult RequestError(string message) => new(new ExecutionError(message));

    private async Task WriteResultAsync(HttpContext context, ExecutionResult result, int statusCode)
    {
        context.Response.StatusCode = statusCode;
        context.Response.ContentType = JsonContentType;
        await _serializer.WriteAsync(context.Response.Body, result, context.RequestAborted);
    }

    /// <summary>
    /// Called by GraphQL.NET for exceptions that are not ExecutionErrors.
    /// - A resolver's failure (database down, a bug) is logged once and reported without
    ///   internals as "Internal server error" with extensions.code INTERNAL_SERVER_ERROR: the
    ///   field is null, HTTP 200 (as in the Express implementation).
    /// - Outside any field (parsing, validation), nothing has been executed, so the answer is
    ///   a request error (HTTP 400). The parser's nesting limit (GraphQLParser stops at 128
    ///   levels) is the client's doing and is not logged; anything else is logged, since it
    ///   points at a GraphQL.NET corner case worth knowing about.
    /// </summary>
    private Task OnUnhandledExceptionAsync(UnhandledExceptionContext exceptionContext)
    {
        if (exceptionContext.FieldContext is { } field)
        {
            _logger.LogError(exceptionContext.OriginalException, "GraphQL field {Path} failed", string.Join(".", field.ResponsePath));
            exceptionContext.Exception = new ExecutionError("Internal server error") { Code = "INTERNAL_SERVER_ERROR" };
        }
        else if (exceptionContext.OriginalException is GraphQLParserException)
        {
            exceptionContext.ErrorMessage = "Syntax Error: the document is nested too deeply.";
        }
        else
        {
            _logger.LogError(exceptionContext.OriginalException, "GraphQL request failed before execution");
            exceptionContext.ErrorMessage = "The request could not be executed.";
        }

        return Task.CompletedTask;
    }
}
