// Data access for the documents API: the documents collection and its four operations,
// nothing else. A payload is stored and read back as sent (validated before, by the
// handlers): objects keep their member order.

using System.Text.Json;
using System.Text.Json.Nodes;
using MongoDB.Bson;
using MongoDB.Driver;

namespace Fairbench.Aspnet.Data;

/// <summary>A stored document as the API answers it.</summary>
public sealed record StoredDocument(string Id, string Kind, JsonNode Payload);

public interface IDocumentsData
{
    Task<StoredDocument> CreateAsync(string kind, JsonElement payload);

    Task<StoredDocument?> GetAsync(string id);

    /// <summary>Replaces kind and payload as a whole (no merge); null when there is no such document.</summary>
    Task<StoredDocument?> ReplaceAsync(string id, string kind, JsonElement payload);

    Task<bool> RemoveAsync(string id);
}

public sealed class DocumentsData(IMongoDatabase database) : IDocumentsData
{
    private readonly IMongoCollection<BsonDocument> _documents = database.GetCollection<BsonDocument>("documents");

    public async Task<StoredDocument> CreateAsync(string kind, JsonElement payload)
    {
        var document = new BsonDocument { { "_id", ObjectId.GenerateNewId() }, { "kind", kind }, { "payload", ToBson(payload) } };
        await _documents.InsertOneAsync(document);
        return ToStored(document);
    }

    public async Task<StoredDocument?> GetAsync(string id)
    {
        var document = await _documents.Find(ById(id)).FirstOrDefaultAsync();
        return document is null ? null : ToStored(document);
    }

    public async Task<StoredDocument?> ReplaceAsync(string id, string kind, JsonElement payload)
    {
        var document = await _documents.FindOneAndReplaceAsync(
            ById(id),
            new BsonDocument { { "kind", kind }, { "payload", ToBson(payload) } },
            new FindOneAndReplaceOptions<BsonDocument> { ReturnDocument = ReturnDocument.After });
        return document is null ? null : ToStored(document);
    }

    public async Task<bool> RemoveAsync(string id) => (await _documents.DeleteOneAsync(ById(id))).DeletedCount == 1;

    private static FilterDefinition<BsonDocument> ById(string id) => Builders<BsonDocument>.Filter.Eq("_id", ObjectId.Parse(id));

    private static StoredDocument ToStored(BsonDocument document) =>
        new(document["_id"].AsObjectId.ToString(), document["kind"].AsString, ToJson(document["payload"]));

    // A validated payload holds only strings, arrays and objects.
    private static BsonValue ToBson(JsonElement element) => element.ValueKind switch
    {
        JsonValueKind.String => new BsonString(element.GetString()),
        JsonValueKind.Array => new BsonArray(element.EnumerateArray().Select(ToBson)),
        JsonValueKind.Object => new BsonDocument(element.EnumerateObject().Select(member => new BsonElement(member.Name, ToBson(member.Value)))),
        _ => throw new ArgumentException($"a payload holds no {element.ValueKind}"),
    };

    private static JsonNode ToJson(BsonValue value) => value switch
    {
        BsonString text => JsonValue.Create(text.Value),
        BsonArray array => new JsonArray(array.Select(item => (JsonNode?)ToJson(item)).ToArray()),
        BsonDocument document => new JsonObject(document.Elements.Select(member => KeyValuePair.Create(member.Name, (JsonNode?)ToJson(member.Value)))),
        _ => throw new InvalidOperationException($"a stored payload holds a {value.BsonType}"),
    };
}
