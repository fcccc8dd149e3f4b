using System.Text.Json;
using System.Text.Json.Nodes;
using Fairbench.Aspnet.Data;
using MongoDB.Bson;

namespace Fairbench.Aspnet.Tests;

/// <summary>In-memory users: alice (user) and root (admin), both with password "secret1".</summary>
public sealed class FakeUsersData : IUsersData
{
    public static readonly string AliceId = "60b578809f2a2a8b5e000001";
    public static readonly string RootId = "60b578809f2a2a8b5e000002";
    private static readonly string Hash = BCrypt.Net.BCrypt.HashPassword("secret1", 4);

    private readonly Dictionary<string, (User User, string Hash)> _users = new()
    {
        [AliceId] = (new User(AliceId, "Alice", "A", "alice", "alice@example.com", "user"), Hash),
        [RootId] = (new User(RootId, "Root", "R", "root", null, "admin"), Hash),
    };

    public Task<IReadOnlyList<User>> ListAsync(int limit) =>
        Task.FromResult<IReadOnlyList<User>>(_users.Values.Select(u => u.User).OrderBy(u => u.Id).Take(limit).ToList());

    public Task<User?> ByIdAsync(string id) => Task.FromResult(_users.TryGetValue(id, out var u) ? u.User : null);

    public Task<(User User, string Hash)?> CredentialsAsync(string username) =>
        Task.FromResult<(User, string)?>(_users.Values.Where(u => u.User.Username == username).Select(u => ((User, string)?)u).FirstOrDefault());

    public Task<User> CreateAsync(UserDocument user)
    {
        if (_users.Values.Any(u => u.User.Username == user.Username))
        {
            throw new UsernameTakenException(user.Username);
        }

        user.Id = ObjectId.GenerateNewId();
        var created = user.ToUser();
        _users[created.Id] = (created, user.Password!);
        return Task.FromResult(created);
    }

    public Task<User?> UpdateAsync(string id, string? name, string? surname)
    {
        if (!_users.TryGetValue(id, out var u))
        {
            return Task.FromResult<User?>(null);
        }

        var updated = u.User with { Name = name ?? u.User.Name, Surname = surname ?? u.User.Surname };
        _users[id] = (updated, u.Hash);
        return Task.FromResult<User?>(updated);
    }

    public Task<bool> RemoveAsync(string id) => Task.FromResult(_users.Remove(id));
}

/// <summary>In-memory documents.</summary>
public sealed class FakeDocumentsData : IDocumentsData
{
    private readonly Dictionary<string, StoredDocument> _documents = new();

    public Task<StoredDocument> CreateAsync(string kind, JsonElement payload)
    {
        var document = new StoredDocument(ObjectId.GenerateNewId().ToString(), kind, JsonNode.Parse(payload.GetRawText())!);
        _documents[document.Id] = document;
        return Task.FromResult(document);
    }

    public Task<StoredDocument?> GetAsync(string id) => Task.FromResult(_documents.GetValueOrDefault(id));

    public Task<StoredDocument?> ReplaceAsync(string id, string kind, JsonElement payload)
    {
        if (!_documents.ContainsKey(id))
        {
            return Task.FromResult<StoredDocument?>(null);
        }

        _documents[id] = new StoredDocument(id, kind, JsonNode.Parse(payload.GetRawText())!);
        return Task.FromResult(_documents.GetValueOrDefault(id));
    }

    public Task<bool> RemoveAsync(string id) => Task.FromResult(_documents.Remove(id));
}

/// <summary>A database that never answers in time: every call is the driver's timeout.</summary>
public sealed class StalledSportsData : ISportsData
{
    private static Task<T> Stalled<T>() => Task.FromException<T>(new TimeoutException("the database did not answer"));

    public Task<SportsUser?> UserByIdAsync(int id) => Stalled<SportsUser?>();
    public Task<(SportsUser User, string Hash)?> CredentialsAsync(string username) => Stalled<(SportsUser, string)?>();
    public Task<SportsUser> CreateUserAsync(string username, string passwordHash, string name, string surname) => Stalled<SportsUser>();
    public Task<SportsPage<SportsFacility>> FacilitiesAsync(Paging paging) => Stalled<SportsPage<SportsFacility>>();
    public Task<SportsFacility?> FacilityByIdAsync(int id) => Stalled<SportsFacility?>();
    public Task<IReadOnlyList<SportsField>> FieldsOfAsync(int facilityId) => Stalled<IReadOnlyList<SportsField>>();
    public Task<SportsField> CreateFieldAsync(int facilityId, string name, string sport, int pricePerHour) => Stalled<SportsField>();
    public Task<SportsPage<SportsField>> FieldsAsync(Paging paging, string? sport) => Stalled<SportsPage<SportsField>>();
    public Task<SportsField?> FieldByIdAsync(int id) => Stalled<SportsField?>();
    public Task<SportsPage<SportsReservationListItem>> ReservationsAsync(SportsUser caller, Paging paging, string? status) => Stalled<SportsPage<SportsReservationListItem>>();
    public Task<OwnedReservation?> ReservationByIdAsync(int id) => Stalled<OwnedReservation?>();
    public Task<SportsReservation> CreateReservationAsync(int userId, int fieldId, DateOnly date, int startHour, int endHour) => Stalled<SportsReservation>();
    public Task<SportsReservation?> DecideAsync(int id, string status) => Stalled<SportsReservation?>();
    public Task<SportsRating?> RatingOfAsync(int reservationId) => Stalled<SportsRating?>();
    public Task<SportsRating> CreateRatingAsync(int reservationId, int score, string? comment) => Stalled<SportsRating>();
}
