// Data access for the sports API: parameterised SQL on one Npgsql pool (DB_POOL_SIZE
// connections; checkout, connect and every command bounded in Config). Rows leave this
// module in the API's shape. The booking rule and one-rating-per-reservation are the
// database's constraints: their violations (SQLSTATE 23P01, 23505) come back as
// OverlapException and TakenException.

using System.Globalization;
using Npgsql;

namespace Fairbench.Aspnet.Data;

public sealed record SportsUser(int Id, string Username, string Name, string Surname, string Role);

public sealed record SportsFacility(int Id, string Name, string City, string Address, int OwnerId);

public sealed record SportsFacilityWithFields(int Id, string Name, string City, string Address, int OwnerId, IReadOnlyList<SportsField> Fields);

public sealed record SportsField(int Id, int FacilityId, string Name, string Sport, int PricePerHour);

public sealed record SportsReservation(int Id, int FieldId, int UserId, string Date, int StartHour, int EndHour, string Status);

/// <summary>A reservation with its field's owner, for the permission checks (never answered as is).</summary>
public sealed record OwnedReservation(SportsReservation Reservation, int OwnerId);

public sealed record SportsReservationListItem(
    int Id, int FieldId, int UserId, string Date, int StartHour, int EndHour, string Status, string FieldName, int FacilityId, string FacilityName);

public sealed record SportsRating(int ReservationId, int Score, string? Comment);

public sealed record SportsPage<T>(IReadOnlyList<T> Items, int Page, int Size, long Total);

public sealed record Paging(int Page, int Size);

public sealed class TakenException() : Exception("taken");

public sealed class OverlapException() : Exception("overlap");

public interface ISportsData
{
    Task<SportsUser?> UserByIdAsync(int id);

    Task<(SportsUser User, string Hash)?> CredentialsAsync(string username);

    Task<SportsUser> CreateUserAsync(string username, string passwordHash, string name, string surname);

    Task<SportsPage<SportsFacility>> FacilitiesAsync(Paging paging);

    Task<SportsFacility?> FacilityByIdAsync(int id);

    Task<IReadOnlyList<SportsField>> FieldsOfAsync(int facilityId);

    Task<SportsField> CreateFieldAsync(int facilityId, string name, string sport, int pricePerHour);

    Task<SportsPage<SportsField>> FieldsAsync(Paging paging, string? sport);

    Task<SportsField?> FieldByIdAsync(int id);

    Task<SportsPage<SportsReservationListItem>> ReservationsAsync(SportsUser caller, Paging paging, string? status);

    Task<OwnedReservation?> ReservationByIdAsync(int id);

    Task<SportsReservation> CreateReservationAsync(int userId, int fieldId, DateOnly date, int startHour, int endHour);

    /// <summary>Decides a pending reservation; null when it is no longer pending (decisions are final).</summary>
    Task<SportsReservation?> DecideAsync(int id, string status);

    Task<SportsRating?> RatingOfAsync(int reservationId);

    Task<SportsRating> CreateRatingAsync(int reservationId, int score, string? comment);
}

public sealed class SportsData(NpgsqlDataSource dataSource) : ISportsData
{
    private const string UniqueViolation = "23505";
    private const string ExclusionViolation = "23P01";

    private const string User = "id, username, name, surname, role";
    private const string Facility = "id, name, city, address, owner_id";
    private const string Field = "id, facility_id, name, sport, price_per_hour";
    private const string Reservation = "r.id, r.field_id, r.user_id, r.date, r.start_hour, r.end_hour, r.status";
    private const string ReservationJoin = "FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id";

    public Task<SportsUser?> UserByIdAsync(int id) => OneAsync($"SELECT {User} FROM app_user WHERE id = $1", ReadUser, id);

    public async Task<(SportsUser User, string Hash)?> CredentialsAsync(string username)
    {
        // No username holds U+0000, and PostgreSQL text cannot even be compared with one.
        if (username.Contains('\0'))
        {
            return null;
        }

        var found = await OneAsync($"SELECT {User}, password_hash FROM app_user WHERE username = $1", reader => (ReadUser(reader), reader.GetString(5)), username);
        return found == default ? null : found;
    }

    public Task<SportsUser> CreateUserAsync(string username, string passwordHash, string name, string surname) =>
        Unique(async () => (await OneAsync(
            $"INSERT INTO app_user (username, password_hash, name, surname, role) VALUES ($1, $2, $3, $4, 'user') RETURNING {User}",
            ReadUser, username, passwordHash, name, surname))!);

    public Task<SportsPage<SportsFacility>> FacilitiesAsync(Paging paging) =>
        PageOfAsync($"SELECT {Facility} FROM sports_facility ORDER BY id", "SELECT COUNT(*) FROM sports_facility", ReadFacility, paging);

    public Task<SportsFacility?> FacilityByIdAsync(int id) => OneAsync($"SELECT {Facility} FROM sports_facility WHERE id = $1", ReadFacility, id);

    public Task<IReadOnlyList<SportsField>> FieldsOfAsync(int facilityId) =>
        AllAsync($"SELECT {Field} FROM sports_field WHERE facility_id = $1 ORDER BY id", ReadField, facilityId);

    public Task<SportsField> CreateFieldAsync(int facilityId, string name, string sport, int pricePerHour) =>
        Unique(async () => (await OneAsync(
            $"INSERT INTO sports_field (facility_id, name, sport, price_per_hour) VALUES ($1, $2, $3, $4) RETURNING {Field}",
            ReadField, facilityId, name, sport, pricePerHour))!);

    public Task<SportsPage<SportsField>> FieldsAsync(Paging paging, string? sport)
    {
        var where = sport is null ? string.Empty : " WHERE sport = $1";
        object[] parameters = sport is null ? [] : [sport];
        return PageOfAsync($"SELECT {Field} FROM sports_field{where} ORDER BY id", $"SELECT COUNT(*) FROM sports_field{where}", ReadField, paging, parameters);
    }

    public Task<SportsField?> FieldByIdAsync(int id) => OneAsync($"SELECT {Field} FROM sports_field WHERE id = $1", ReadField, id);

    public Task<SportsPage<SportsReservationListItem>> ReservationsAsync(SportsUser caller, Paging paging, string? status)
    {
        var where = caller.Role == "owner" ? "fa.owner_id = $1" : "r.user_id = $1";
        object[] parameters = [caller.Id];
        if (status is not null)
        {
            where += " AND r.status = $2";
            parameters = [caller.Id, status];
        }

        return PageOfAsync(
            $"SELECT {Reservation}, f.name, fa.id, fa.name {ReservationJoin} WHERE {where} ORDER BY r.id",
            $"SELECT COUNT(*) {ReservationJoin} WHERE {where}",
            reader => new SportsReservationListItem(
                reader.GetInt32(0), reader.GetInt32(1), reader.GetInt32(2), Date(reader, 3), reader.GetInt16(4), reader.GetInt16(5), reader.GetString(6),
                reader.GetString(7), reader.GetInt32(8), reader.GetString(9)),
            paging,
            parameters);
    }

    public Task<OwnedReservation?> ReservationByIdAsync(int id) =>
        OneAsync($"SELECT {Reservation}, fa.owner_id {ReservationJoin} WHERE r.id = $1", reader => new OwnedReservation(ReadReservation(reader), reader.GetInt32(7)), id);

    public async Task<SportsReservation> CreateReservationAsync(int userId, int fieldId, DateOnly date, int startHour, int endHour)
    {
        try
        {
            // Two concurrent inserts of overlapping slots can each wait for the other's exclusion
            // check, and PostgreSQL then aborts one as a deadlock (40P01). A transaction-scoped
            // advisory lock on (field, date), taken in the same statement, makes them take turns:
            // the loser gets the exclusion violation, a 409.
            return (await OneAsync(
                "WITH slot AS (SELECT pg_advisory_xact_lock($1::int, $3::date - DATE '2000-01-01')) " +
                "INSERT INTO reservation AS r (field_id, user_id, date, start_hour, end_hour) " +
                $"SELECT $1::int, $2::int, $3::date, $4::smallint, $5::smallint FROM slot RETURNING {Reservation}",
                ReadReservation, fieldId, userId, date, (short)startHour, (short)endHour))!;
        }
        catch (PostgresException ex) when (ex.SqlState == ExclusionViolation)
        {
            throw new OverlapException();
        }
    }

    public Task<SportsReservation?> DecideAsync(int id, string status) =>
        OneAsync($"UPDATE reservation AS r SET status = $2 WHERE r.id = $1 AND r.status = 'pending' RETURNING {Reservation}", ReadReservation, id, status);

    public Task<SportsRating?> RatingOfAsync(int reservationId) =>
        OneAsync("SELECT reservation_id, score, comment FROM rating WHERE reservation_id = $1", ReadRating, reservationId);

    public Task<SportsRating> CreateRatingAsync(int reservationId, int score, string? comment) =>
        Unique(async () => (await OneAsync(
            "INSERT INTO rating (reservation_id, score, comment) VALUES ($1, $2, $3) RETURNING reservation_id, score, comment",
            ReadRating, reservationId, (short)score, (object?)comment ?? DBNull.Value))!);

    private static SportsUser ReadUser(NpgsqlDataReader reader) =>
        new(reader.GetInt32(0), reader.GetString(1), reader.GetString(2), reader.GetString(3), reader.GetString(4));

    private static SportsFacility ReadFacility(NpgsqlDataReader reader) =>
        new(reader.GetInt32(0), reader.GetString(1), reader.GetString(2), reader.GetString(3), reader.GetInt32(4));

    private static SportsField ReadField(NpgsqlDataReader reader) =>
        new(reader.GetInt32(0), reader.GetInt32(1), reader.GetString(2), reader.GetString(3), reader.GetInt32(4));

    private static SportsReservation ReadReservation(NpgsqlDataReader reader) =>
        new(reader.GetInt32(0), reader.GetInt32(1), reader.GetInt32(2), Date(reader, 3), reader.GetInt16(4), reader.GetInt16(5), reader.GetString(6));

    private static SportsRating ReadRating(NpgsqlDataReader reader) =>
        new(reader.GetInt32(0), reader.GetInt16(1), reader.IsDBNull(2) ? null : reader.GetString(2));

    // DATE as 'YYYY-MM-DD': no time of day, no time zone.
    private static string Date(NpgsqlDataReader reader, int ordinal) =>
        reader.GetFieldValue<DateOnly>(ordinal).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    private static async Task<T> Unique<T>(Func<Task<T>> insert)
    {
        try
        {
            return await insert();
        }
        catch (PostgresException ex) when (ex.SqlState == UniqueViolation)
        {
            throw new TakenException();
        }
    }

    private NpgsqlCommand Command(string sql, object[] parameters)
    {
        var command = dataSource.CreateCommand(sql);
        foreach (var value in parameters)
        {
            command.Parameters.Add(new NpgsqlParameter { Value = value });
        }

        return command;
    }

    private async Task<T?> OneAsync<T>(string sql, Func<NpgsqlDataReader, T> read, params object[] parameters)
    {
        await using var command = Command(sql, parameters);
        await using var reader = await command.ExecuteReaderAsync();
        return await reader.ReadAsync() ? read(reader) : default;
    }

    private async Task<IReadOnlyList<T>> AllAsync<T>(string sql, Func<NpgsqlDataReader, T> read, params object[] parameters)
    {
        await using var command = Command(sql, parameters);
        await using var reader = await command.ExecuteReaderAsync();
        var rows = new List<T>();
        while (await reader.ReadAsync())
        {
            rows.Add(read(reader));
        }

        return rows;
    }

    /// <summary>A page: the rows of <paramref name="sql"/> (which orders them) from the page's offset, and the total <paramref name="countSql"/> finds.</summary>
    private async Task<SportsPage<T>> PageOfAsync<T>(string sql, string countSql, Func<NpgsqlDataReader, T> read, Paging paging, params object[] parameters)
    {
        var offset = (long)(paging.Page - 1) * paging.Size;
        var items = AllAsync($"{sql} LIMIT {paging.Size} OFFSET {offset}", read, parameters);
        var total = OneAsync(countSql, reader => reader.GetInt64(0), parameters);
        await Task.WhenAll(items, total);
        return new SportsPage<T>(await items, paging.Page, paging.Size, await total);
    }
}
