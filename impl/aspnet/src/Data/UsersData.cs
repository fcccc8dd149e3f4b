// Data access for the users API: the users collection of the paper's Table 1 (password =
// the bcrypt hash, salt = its salt) and the operations the handlers need. Every read
// projects away password and salt except the login lookup; every user leaves this module as
// a User (an explicit whitelist of members).

using MongoDB.Bson;
using MongoDB.Bson.Serialization.Attributes;
using MongoDB.Driver;

namespace Fairbench.Aspnet.Data;

/// <summary>The API's user: never the password or its salt. <c>email</c> is left out when there is none.</summary>
public sealed record User(
    string Id,
    string Name,
    string Surname,
    string Username,
    [property: System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)] string? Email,
    string Role);

/// <summary>A stored user document.</summary>
[BsonIgnoreExtraElements]
public sealed class UserDocument
{
    [BsonId] public ObjectId Id { get; set; }
    [BsonElement("name")] public string Name { get; set; } = "";
    [BsonElement("surname")] public string Surname { get; set; } = "";
    [BsonElement("email"), BsonIgnoreIfNull] public string? Email { get; set; }
    [BsonElement("username")] public string Username { get; set; } = "";
    [BsonElement("password"), BsonIgnoreIfNull] public string? Password { get; set; }
    [BsonElement("salt"), BsonIgnoreIfNull] public string? Salt { get; set; }
    [BsonElement("role")] public string Role { get; set; } = "user";

    public User ToUser() => new(Id.ToString(), Name, Surname, Username, Email, Role);
}

public sealed class UsernameTakenException(string username) : Exception($"username {username} is taken");

public interface IUsersData
{
    Task<IReadOnlyList<User>> ListAsync(int limit);

    Task<User?> ByIdAsync(string id);

    /// <summary>The user and their stored hash, or null.</summary>
    Task<(User User, string Hash)?> CredentialsAsync(string username);

    /// <summary>Inserts a user; <see cref="UsernameTakenException"/> when the unique index refuses the username.</summary>
    Task<User> CreateAsync(UserDocument user);

    Task<User?> UpdateAsync(string id, string? name, string? surname);

    Task<bool> RemoveAsync(string id);
}

public sealed class UsersData(IMongoDatabase database) : IUsersData
{
    private static readonly ProjectionDefinition<UserDocument> Public =
        Builders<UserDocument>.Projection.Exclude(user => user.Password).Exclude(user => user.Salt);

    private readonly IMongoCollection<UserDocument> _users = database.GetCollection<UserDocument>("users");

    public async Task<IReadOnlyList<User>> ListAsync(int limit)
    {
        var docs = await _users.Find(FilterDefinition<UserDocument>.Empty)
            .Project<UserDocument>(Public).Sort(Builders<UserDocument>.Sort.Ascending(user => user.Id)).Limit(limit).ToListAsync();
        return docs.ConvertAll(doc => doc.ToUser());
    }

    public async Task<User?> ByIdAsync(string id)
    {
        var doc = await _users.Find(user => user.Id == ObjectId.Parse(id)).Project<UserDocument>(Public).FirstOrDefaultAsync();
        return doc?.ToUser();
    }

    public async Task<(User User, string Hash)?> CredentialsAsync(string username)
    {
        var doc = await _users.Find(user => user.Username == username).FirstOrDefaultAsync();
        return doc is { Password: { } hash } ? (doc.ToUser(), hash) : null;
    }

    public async Task<User> CreateAsync(UserDocument user)
    {
        try
        {
            // The unique index decides (no read-then-insert race): E11000 duplicate key.
            await _users.InsertOneAsync(user);
        }
        catch (MongoWriteException ex) when (ex.WriteError?.Category == ServerErrorCategory.DuplicateKey)
        {
            throw new UsernameTakenException(user.Username);
        }

        return user.ToUser();
    }

    public async Task<User?> UpdateAsync(string id, string? name, string? surname)
    {
        var updates = new List<UpdateDefinition<UserDocument>>();
        if (name is not null)
        {
            updates.Add(Builders<UserDocument>.Update.Set(user => user.Name, name));
        }

        if (surname is not null)
        {
            updates.Add(Builders<UserDocument>.Update.Set(user => user.Surname, surname));
        }

        // No projection: FerretDB 1.24 does not implement findAndModify's `fields`; ToUser drops password and salt.
        var doc = await _users.FindOneAndUpdateAsync(
            user => user.Id == ObjectId.Parse(id),
            Builders<UserDocument>.Update.Combine(updates),
            new FindOneAndUpdateOptions<UserDocument> { ReturnDocument = ReturnDocument.After });
        return doc?.ToUser();
    }

    public async Task<bool> RemoveAsync(string id)
    {
        var result = await _users.DeleteOneAsync(user => user.Id == ObjectId.Parse(id));
        return result.DeletedCount == 1;
    }
}
