// Handlers of the documents API: the body's transport (415, 413, malformed JSON: JsonBody),
// then the id, then the body's shape (DocumentsInput), then the data layer.

using System.Text.Json;
using System.Text.RegularExpressions;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Http;

namespace Fairbench.Aspnet.Handlers;

public sealed partial class DocumentsHandlers(IDocumentsData data)
{
    [GeneratedRegex(@"^[0-9a-f]{24}\z")]
    private static partial Regex ObjectIdPattern();

    [GeneratedRegex(@"^[A-Za-z][A-Za-z0-9_]{0,31}\z")]
    private static partial Regex AttributeNamePattern();

    public async Task<IResult> CreateAsync(HttpContext http)
    {
        var (body, problem) = await ReadAsync(http);
        if (problem is not null)
        {
            return problem;
        }

        var (kind, payload, invalid) = Validate(body);
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        var document = await data.CreateAsync(kind!, payload);
        return TypedResults.Created($"/documents/{document.Id}", document);
    }

    public async Task<IResult> GetAsync(string id)
    {
        if (!ObjectIdPattern().IsMatch(id))
        {
            return InvalidId();
        }

        var document = await data.GetAsync(id);
        return document is null ? NotFound(id) : TypedResults.Ok(document);
    }

    public async Task<IResult> ReplaceAsync(string id, HttpContext http)
    {
        var (body, problem) = await ReadAsync(http);
        if (problem is not null)
        {
            return problem;
        }

        if (!ObjectIdPattern().IsMatch(id))
        {
            return InvalidId();
        }

        var (kind, payload, invalid) = Validate(body);
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        var document = await data.ReplaceAsync(id, kind!, payload);
        return document is null ? NotFound(id) : TypedResults.Ok(document);
    }

    public async Task<IResult> RemoveAsync(string id)
    {
        if (!ObjectIdPattern().IsMatch(id))
        {
            return InvalidId();
        }

        return await data.RemoveAsync(id) ? TypedResults.NoContent() : NotFound(id);
    }

    /// <summary>The body as JSON (any value: a non-object is then invalid, not malformed), or the problem.</summary>
    private static async Task<(JsonElement Body, IResult? Problem)> ReadAsync(HttpContext http)
    {
        var (bytes, problem) = await JsonBody.ReadBytesAsync(http, App.DocumentsBodyLimit);
        if (problem is not null)
        {
            return (default, problem);
        }

        if (bytes!.Length == 0)
        {
            return (default, JsonBody.EmptyBody());
        }

        return JsonBody.ParseTree(bytes);
    }

    /// <summary>DocumentsInput: {kind, payload} with the payload of exactly that kind's shape, no other member.</summary>
    public static (string? Kind, JsonElement Payload, string? Invalid) Validate(JsonElement body)
    {
        if (body.ValueKind != JsonValueKind.Object)
        {
            return (null, default, "the body must be an object {kind, payload}");
        }

        foreach (var member in body.EnumerateObject())
        {
            if (member.Name is not ("kind" or "payload"))
            {
                return (null, default, $"\"{member.Name}\" is not allowed");
            }
        }

        if (!body.TryGetProperty("kind", out var kindElement) || kindElement.ValueKind != JsonValueKind.String)
        {
            return (null, default, "\"kind\" is required: one of text, list, record, table");
        }

        if (!body.TryGetProperty("payload", out var payload))
        {
            return (null, default, "\"payload\" is required");
        }

        var kind = kindElement.GetString();
        var invalid = kind switch
        {
            "text" => Text(payload, 1000, "payload"),
            "list" => List(payload, 100, item => Text(item, 100, "payload item")),
            "record" => Attributes(payload, 100, 100),
            "table" => List(payload, 50, row => Attributes(row, 50, 50)),
            _ => "\"kind\" must be one of text, list, record, table",
        };
        return (kind, payload, invalid);
    }

    // Printable ASCII only (U+0020..U+007E): one length in every language and encoding.
    private static string? Text(JsonElement value, int length, string what)
    {
        if (value.ValueKind != JsonValueKind.String)
        {
            return $"{what} must be a string";
        }

        var text = value.GetString()!;
        return text.Length == length && text.All(c => c is >= ' ' and <= '~')
            ? null
            : $"{what} must be {length} printable ASCII characters";
    }

    private static string? List(JsonElement value, int count, Func<JsonElement, string?> item)
    {
        if (value.ValueKind != JsonValueKind.Array || value.GetArrayLength() != count)
        {
            return $"payload must be an array of {count} items";
        }

        return value.EnumerateArray().Select(item).FirstOrDefault(invalid => invalid is not null);
    }

    private static string? Attributes(JsonElement value, int count, int length)
    {
        if (value.ValueKind != JsonValueKind.Object)
        {
            return $"an object of {count} attributes is expected";
        }

        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var member in value.EnumerateObject())
        {
            if (!AttributeNamePattern().IsMatch(member.Name))
            {
                return $"attribute name \"{member.Name}\" is not allowed";
            }

            names.Add(member.Name);
            if (Text(member.Value, length, $"attribute {member.Name}") is { } invalid)
            {
                return invalid;
            }
        }

        return names.Count == count && value.EnumerateObject().Count() == count ? null : $"an object of exactly {count} attributes is expected";
    }

    private static IResult InvalidId() => Problems.Result(Problems.InvalidParameter, "id must be a document id (24 lowercase hexadecimal digits)");

    private static IResult NotFound(string id) => Problems.Result(Problems.NotFound, $"document {id} does not exist");
}
