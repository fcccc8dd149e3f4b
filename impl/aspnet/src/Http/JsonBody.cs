// Reading a JSON request body the contract's way. Minimal APIs' own body binding answers
// every JSON failure with the same 400 and binds before the handler could authenticate, so
// bodies are read here instead, in this order: application/json or 415; the route's size
// limit (413, after the rest of the body is read; Kestrel's MaxRequestBodySize bounds that); valid JSON or 400
// malformed-body (UTF-8 too, IsUtf8); the shape (System.Text.Json with the source-generated metadata: unknown
// members, wrong types, missing required members) or 400 invalid-body; then the handler's
// validator.

using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using System.Text.Unicode;
using Microsoft.AspNetCore.Http.Features;

namespace Fairbench.Aspnet.Http;

public readonly record struct Body<T>(T? Value, IResult? Problem)
{
    public bool Ok => Problem is null;
}

public static class JsonBody
{
    /// <summary>The JSON nesting a body may have (a deeper one is malformed, not a stack to exhaust).</summary>
    public const int MaxDepth = 64;

    /// <summary>
    /// How much past a route's limit is still read (and thrown away) before its 413: a server
    /// that answers and closes with part of a body unread makes the kernel reset the connection,
    /// which discards the answer before the client reads it. Past this, Kestrel's own limit
    /// refuses the body (its 413, then a close): a client sending that much is not owed an answer.
    /// </summary>
    public const int DrainBytes = 1024 * 1024;

    private static readonly JsonDocumentOptions DocumentOptions = new() { MaxDepth = MaxDepth };

    /// <summary>application/json, with or without parameters (charset=utf-8, ...); case-insensitive.</summary>
    public static bool IsJson(string? contentType)
    {
        if (string.IsNullOrEmpty(contentType))
        {
            return false;
        }

        var semicolon = contentType.IndexOf(';');
        var mediaType = (semicolon >= 0 ? contentType[..semicolon] : contentType).Trim();
        return string.Equals(mediaType, "application/json", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>The body's bytes, or a problem (415, 413). <paramref name="limit"/> also becomes Kestrel's limit for this request.</summary>
    public static async Task<(byte[]? Bytes, IResult? Problem)> ReadBytesAsync(HttpContext http, int limit, string unsupported = "the body must be application/json")
    {
        if (!IsJson(http.Request.ContentType))
        {
            return (null, Problems.Result(Problems.UnsupportedMediaType, unsupported));
        }

        if (http.Request.ContentLength > limit)
        {
            return (null, TooLarge(limit));
        }

        // Kestrel counts chunked bodies against this too (BadHttpRequestException 413 -> the exception handler).
        if (http.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } max)
        {
            max.MaxRequestBodySize = limit + DrainBytes;
        }

        using var buffer = new MemoryStream();
        var chunk = new byte[16 * 1024];
        int read;
        while ((read = await http.Request.Body.ReadAsync(chunk, http.RequestAborted)) > 0)
        {
            if (buffer.Length + read > limit)
            {
                await DrainAsync(http.Request.Body, chunk, http.RequestAborted);
                return (null, TooLarge(limit));
            }

            buffer.Write(chunk, 0, read);
        }

        return (buffer.ToArray(), null);
    }

    /// <summary>Reads the rest of a body that is over its limit, so that the 413 reaches the client (<see cref="DrainBytes"/>).</summary>
    public static async Task DrainAsync(Stream body, Memory<byte> scratch, CancellationToken cancellationToken)
    {
        while (await body.ReadAsync(scratch, cancellationToken) > 0)
        {
        }
    }

    /// <summary>The body as <typeparamref name="T"/>, or the problem to answer (415, 413, 400 malformed, 400 invalid).</summary>
    public static async Task<Body<T>> ReadAsync<T>(HttpContext http, JsonTypeInfo<T> type, int limit)
    {
        var (bytes, problem) = await ReadBytesAsync(http, limit);
        if (problem is not null)
        {
            return new Body<T>(default, problem);
        }

        return Parse(bytes!, type);
    }

    public static Body<T> Parse<T>(ReadOnlySpan<byte> bytes, JsonTypeInfo<T> type)
    {
        if (bytes.IsEmpty)
        {
            return new Body<T>(default, EmptyBody());
        }

        var (root, problem) = ParseTree(bytes);
        if (problem is not null)
        {
            return new Body<T>(default, problem);
        }

        if (root.ValueKind != JsonValueKind.Object)
        {
            return new Body<T>(default, Problems.Result(Problems.InvalidBody, "the request body must be a JSON object"));
        }

        try
        {
            var value = root.Deserialize(type);
            return value is null
                ? new Body<T>(default, Problems.Result(Problems.InvalidBody, "the request body must be a JSON object"))
                : new Body<T>(value, null);
        }
        catch (JsonException ex)
        {
            return new Body<T>(default, Problems.Result(Problems.InvalidBody, Describe(ex)));
        }
    }

    /// <summary>
    /// A non-empty body as a JSON tree, or its problem. Two passes, so that malformed JSON (400
    /// malformed-body) and JSON of the wrong shape (400 invalid-body) differ: first the reader
    /// alone, without a depth limit (it does not recurse), so that well-formed JSON nested deeper
    /// than any body of the spec is the wrong shape, not malformed; then the tree, within MaxDepth.
    /// </summary>
    public static (JsonElement Root, IResult? Problem) ParseTree(ReadOnlySpan<byte> bytes)
    {
        if (!IsUtf8(bytes))
        {
            return (default, NotUtf8());
        }

        var reader = new Utf8JsonReader(bytes, new JsonReaderOptions { MaxDepth = int.MaxValue });
        var deepest = 0;
        try
        {
            while (reader.Read())
            {
                deepest = Math.Max(deepest, reader.CurrentDepth);
            }
        }
        catch (JsonException)
        {
            return (default, Problems.Result(Problems.MalformedBody, "the request body is not valid JSON"));
        }

        if (deepest >= MaxDepth)
        {
            return (default, Problems.Result(Problems.InvalidBody, $"the request body is nested deeper than {MaxDepth} levels"));
        }

        try
        {
            using var document = JsonDocument.Parse(bytes.ToArray(), DocumentOptions);
            return (document.RootElement.Clone(), null);
        }
        catch (JsonException)
        {
            return (default, Problems.Result(Problems.MalformedBody, "the request body is not valid JSON"));
        }
    }

    /// <summary>
    /// Whether a body is UTF-8, as JSON text between systems must be (RFC 8259 §8.1; otherwise
    /// it is not JSON: 400 malformed-body). System.Text.Json's reader checks the grammar but not
    /// the bytes inside strings and member names: those fail later, as an InvalidOperationException
    /// from GetString (a 500), so every body is checked whole before it is parsed.
    /// </summary>
    public static bool IsUtf8(ReadOnlySpan<byte> bytes) => Utf8.IsValid(bytes);

    public static IResult NotUtf8() => Problems.Result(Problems.MalformedBody, "the request body is not UTF-8, so not JSON");

    /// <summary>No body at all is no JSON value, so not the body the operation needs (as Express's parser: {}).</summary>
    public static IResult EmptyBody() => Problems.Result(Problems.InvalidBody, "the request body is empty");

    public static IResult Invalid(string detail) => Problems.Result(Problems.InvalidBody, detail);

    private static IResult TooLarge(int limit) => Problems.Result(Problems.PayloadTooLarge, $"the request body is larger than {limit} bytes");

    // System.Text.Json's message names the member's JSON path; the exception text after it is the reason.
    private static string Describe(JsonException ex) =>
        ex.Path is { Length: > 0 } path ? $"{path}: {ex.Message.Split(" Path:")[0]}" : ex.Message.Split(" Path:")[0];
}
