// Handlers of the sports API: the request checked in the order spec/README.md fixes
// (token, path id, existence, permission, body, state), the data layer, the answer. The
// token is checked before these run (the "sports" policy); the caller is the stored user.

using System.Globalization;
using System.Text;
using System.Text.Json.Serialization;
using System.Text.RegularExpressions;
using Fairbench.Aspnet.Auth;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Http;

namespace Fairbench.Aspnet.Handlers;

public sealed record SportsRegistration(string Username, string Password, string Name, string Surname);

public sealed record SportsFieldInput(string Name, string Sport, int PricePerHour);

public sealed record SportsReservationInput(int FieldId, string Date, int StartHour, int EndHour);

public sealed record SportsStatusInput(string Status);

// A class, not a record: System.Text.Json calls a setter only for a member that is present, so
// an explicit "comment": null (refused: null is not a string) is told from a missing comment.
public sealed class SportsRatingInput
{
    private string? comment;

    public int Score { get; set; }

    // `set`, not `init`: an init-only property is given its default when the member is missing.
    public string? Comment
    {
        get => comment;
        set
        {
            comment = value;
            HasComment = true;
        }
    }

    [JsonIgnore]
    public bool HasComment { get; private set; }
}

public sealed partial class SportsHandlers(ISportsData data, JwtSettings jwt, PasswordHashing passwords)
{
    public static readonly string[] Sports = ["tennis", "padel", "football", "basketball", "volleyball"];
    public static readonly string[] Statuses = ["pending", "accepted", "refused"];
    private const int DefaultSize = 20;
    private const int MaxPage = 100000;
    private const string BadCredentials = "username or password is wrong";

    [GeneratedRegex(@"^[A-Za-z0-9._-]+\z")]
    private static partial Regex UsernamePattern();

    [GeneratedRegex(@"^[0-9]{4}-[0-9]{2}-[0-9]{2}\z")]
    private static partial Regex DatePattern();

    public async Task<IResult> LoginAsync(HttpContext http)
    {
        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.LoginRequest, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var credentials = body.Value!;
        var invalid = Chars("username", credentials.Username, 1, 64) ?? Password(credentials.Password, 1);
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        var found = await data.CredentialsAsync(credentials.Username);
        var matches = await passwords.VerifyAsync(credentials.Password, found?.Hash);
        if (found is not { } user || !matches)
        {
            return TokenAuth.Unauthorized(http, BadCredentials);
        }

        var sub = user.User.Id.ToString(CultureInfo.InvariantCulture);
        return TypedResults.Ok(new LoginResponse(TokenAuth.Issue(jwt, sub, user.User.Role), "Bearer", jwt.LifetimeSeconds));
    }

    public async Task<IResult> RegisterAsync(HttpContext http)
    {
        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.SportsRegistration, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var registration = body.Value!;
        var invalid = (registration.Username.Length is >= 3 and <= 64 && UsernamePattern().IsMatch(registration.Username) ? null : "username must be 3 to 64 of A-Z a-z 0-9 . _ -")
            ?? Password(registration.Password, 6) ?? Text("name", registration.Name, 100) ?? Text("surname", registration.Surname, 100);
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        try
        {
            var hash = await passwords.HashAsync(registration.Password);
            var user = await data.CreateUserAsync(registration.Username, hash, registration.Name, registration.Surname);
            return TypedResults.Created($"/sports/users/{user.Id}", user);
        }
        catch (TakenException)
        {
            return Problems.Result(Problems.Conflict, $"username {registration.Username} is taken");
        }
    }

    public async Task<IResult> UserAsync(string id)
    {
        if (!Params.TryParseId(id, out var userId))
        {
            return InvalidId();
        }

        return await data.UserByIdAsync(userId) is { } user ? TypedResults.Ok(user) : NotFound("user");
    }

    public async Task<IResult> FacilitiesAsync(HttpContext http)
    {
        if (Paging(http, out var paging) is { } invalid)
        {
            return invalid;
        }

        return TypedResults.Ok(await data.FacilitiesAsync(paging));
    }

    public async Task<IResult> FacilityAsync(string id)
    {
        if (!Params.TryParseId(id, out var facilityId))
        {
            return InvalidId();
        }

        var facility = await data.FacilityByIdAsync(facilityId);
        if (facility is null)
        {
            return NotFound("facility");
        }

        var fields = await data.FieldsOfAsync(facilityId);
        return TypedResults.Ok(new SportsFacilityWithFields(facility.Id, facility.Name, facility.City, facility.Address, facility.OwnerId, fields));
    }

    public async Task<IResult> CreateFieldAsync(string id, HttpContext http)
    {
        if (!Params.TryParseId(id, out var facilityId))
        {
            return InvalidId();
        }

        var facility = await data.FacilityByIdAsync(facilityId);
        if (facility is null)
        {
            return NotFound("facility");
        }

        if (facility.OwnerId != Caller(http).Id)
        {
            return Forbidden("only the facility's owner may add fields to it");
        }

        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.SportsFieldInput, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var field = body.Value!;
        var invalid = Text("name", field.Name, 100)
            ?? (Sports.Contains(field.Sport) ? null : $"sport must be one of {string.Join(", ", Sports)}")
            ?? (field.PricePerHour is >= 1 and <= 1000 ? null : "pricePerHour must be an integer from 1 to 1000");
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        try
        {
            var created = await data.CreateFieldAsync(facilityId, field.Name, field.Sport, field.PricePerHour);
            return TypedResults.Created($"/sports/sports-fields/{created.Id}", created);
        }
        catch (TakenException)
        {
            return Problems.Result(Problems.Conflict, $"the facility already has a field named {field.Name}");
        }
    }

    public async Task<IResult> FieldsAsync(HttpContext http)
    {
        if (Paging(http, out var paging) is { } invalid)
        {
            return invalid;
        }

        if (Choice(http, "sport", Sports, out var sport) is { } invalidSport)
        {
            return invalidSport;
        }

        return TypedResults.Ok(await data.FieldsAsync(paging, sport));
    }

    public async Task<IResult> FieldAsync(string id)
    {
        if (!Params.TryParseId(id, out var fieldId))
        {
            return InvalidId();
        }

        return await data.FieldByIdAsync(fieldId) is { } field ? TypedResults.Ok(field) : NotFound("field");
    }

    public async Task<IResult> ReservationsAsync(HttpContext http)
    {
        if (Paging(http, out var paging) is { } invalid)
        {
            return invalid;
        }

        if (Choice(http, "status", Statuses, out var status) is { } invalidStatus)
        {
            return invalidStatus;
        }

        return TypedResults.Ok(await data.ReservationsAsync(Caller(http), paging, status));
    }

    public async Task<IResult> ReserveAsync(HttpContext http)
    {
        var caller = Caller(http);
        if (caller.Role != "user")
        {
            return Forbidden("only users reserve fields");
        }

        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.SportsReservationInput, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var input = body.Value!;
        var invalid = (input.FieldId >= 1 ? null : "fieldId must be an integer from 1 to 2147483647")
            ?? (DatePattern().IsMatch(input.Date) ? null : "date must be YYYY-MM-DD")
            ?? (input.StartHour is >= 6 and <= 22 ? null : "startHour must be an integer from 6 to 22")
            ?? (input.EndHour is >= 7 and <= 23 ? null : "endHour must be an integer from 7 to 23")
            ?? ReservationRuleBroken(input, DateOnly.FromDateTime(DateTime.UtcNow));
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        if (await data.FieldByIdAsync(input.FieldId) is null)
        {
            return NotFound("field");
        }

        try
        {
            var date = DateOnly.ParseExact(input.Date, "yyyy-MM-dd", CultureInfo.InvariantCulture);
            var created = await data.CreateReservationAsync(caller.Id, input.FieldId, date, input.StartHour, input.EndHour);
            return TypedResults.Created($"/sports/reservations/{created.Id}", created);
        }
        catch (OverlapException)
        {
            return Problems.Result(Problems.Conflict, "the field is already reserved for an overlapping slot");
        }
    }

    public async Task<IResult> ReservationAsync(string id, HttpContext http)
    {
        var (found, problem) = await TargetAsync(id);
        if (problem is not null)
        {
            return problem;
        }

        return MayRead(Caller(http), found!)
            ? TypedResults.Ok(found!.Reservation)
            : Forbidden("only the reservation's user or its facility's owner may read it");
    }

    public async Task<IResult> DecideAsync(string id, HttpContext http)
    {
        var (found, problem) = await TargetAsync(id);
        if (problem is not null)
        {
            return problem;
        }

        if (Caller(http).Id != found!.OwnerId)
        {
            return Forbidden("only the facility's owner accepts or refuses its reservations");
        }

        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.SportsStatusInput, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        if (body.Value!.Status is not ("accepted" or "refused"))
        {
            return JsonBody.Invalid("status must be accepted or refused");
        }

        var updated = await data.DecideAsync(found.Reservation.Id, body.Value.Status);
        return updated is null ? Problems.Result(Problems.Conflict, "the reservation was already decided") : TypedResults.Ok(updated);
    }

    public async Task<IResult> RatingAsync(string id, HttpContext http)
    {
        var (found, problem) = await TargetAsync(id);
        if (problem is not null)
        {
            return problem;
        }

        if (!MayRead(Caller(http), found!))
        {
            return Forbidden("only the reservation's user or its facility's owner may read its rating");
        }

        return await data.RatingOfAsync(found!.Reservation.Id) is { } rating ? TypedResults.Ok(rating) : NotFound("rating");
    }

    public async Task<IResult> RateAsync(string id, HttpContext http)
    {
        var (found, problem) = await TargetAsync(id);
        if (problem is not null)
        {
            return problem;
        }

        if (Caller(http).Id != found!.Reservation.UserId)
        {
            return Forbidden("only the user who made the reservation rates it");
        }

        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.SportsRatingInput, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var input = body.Value!;
        var invalid = (input.Score is >= 1 and <= 5 ? null : "score must be an integer from 1 to 5")
            ?? (!input.HasComment ? null : input.Comment is null ? "comment must be a string" : Text("comment", input.Comment, 500));
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        if (found.Reservation.Status != "accepted")
        {
            return Problems.Result(Problems.Conflict, "only an accepted reservation can be rated");
        }

        try
        {
            var created = await data.CreateRatingAsync(found.Reservation.Id, input.Score, input.Comment);
            return TypedResults.Created($"/sports/reservations/{found.Reservation.Id}/rating", created);
        }
        catch (TakenException)
        {
            return Problems.Result(Problems.Conflict, "the reservation is already rated");
        }
    }

    /// <summary>The rules JSON Schema cannot say: a real calendar date from today (UTC) to 2099-12-31, and 1 to 4 hours.</summary>
    public static string? ReservationRuleBroken(SportsReservationInput input, DateOnly today)
    {
        if (!DateOnly.TryParseExact(input.Date, "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var date))
        {
            return $"{input.Date} is not a calendar date";
        }

        if (date < today)
        {
            return $"{input.Date} is in the past";
        }

        if (date > new DateOnly(2099, 12, 31))
        {
            return "reservations end with 2099-12-31";
        }

        if (input.EndHour <= input.StartHour)
        {
            return "endHour must be after startHour";
        }

        return input.EndHour - input.StartHour > 4 ? "a reservation is at most 4 hours" : null;
    }

    private static SportsUser Caller(HttpContext http) => (SportsUser)http.Caller().User;

    private static bool MayRead(SportsUser caller, OwnedReservation found) => caller.Id == found.Reservation.UserId || caller.Id == found.OwnerId;

    /// <summary>/sports/reservations/{id}...: a valid id (400) of a reservation that exists (404).</summary>
    private async Task<(OwnedReservation? Found, IResult? Problem)> TargetAsync(string id)
    {
        if (!Params.TryParseId(id, out var reservationId))
        {
            return (null, InvalidId());
        }

        var found = await data.ReservationByIdAsync(reservationId);
        return found is null ? (null, NotFound("reservation")) : (found, null);
    }

    private static IResult? Paging(HttpContext http, out Paging paging)
    {
        paging = new Paging(1, DefaultSize);
        if (!QueryNumber(http, "page", MaxPage, 1, out var page))
        {
            return Problems.Result(Problems.InvalidParameter, $"page must be an integer from 1 to {MaxPage}");
        }

        if (!QueryNumber(http, "size", 100, DefaultSize, out var size))
        {
            return Problems.Result(Problems.InvalidParameter, "size must be an integer from 1 to 100");
        }

        paging = new Paging(page, size);
        return null;
    }

    /// <summary>A canonical decimal query parameter from 1 to max, <paramref name="fallback"/> when absent.</summary>
    private static bool QueryNumber(HttpContext http, string name, int max, int fallback, out int value)
    {
        value = fallback;
        if (!http.Request.Query.TryGetValue(name, out var values))
        {
            return true;
        }

        return values.Count == 1 && Params.TryParseId(values[0], out value) && value <= max;
    }

    /// <summary>An optional query parameter from a fixed list (null when absent).</summary>
    private static IResult? Choice(HttpContext http, string name, string[] choices, out string? value)
    {
        value = null;
        if (!http.Request.Query.TryGetValue(name, out var values))
        {
            return null;
        }

        if (values.Count == 1 && choices.Contains(values[0]))
        {
            value = values[0];
            return null;
        }

        return Problems.Result(Problems.InvalidParameter, $"{name} must be one of {string.Join(", ", choices)}");
    }

    // Lengths in code points, as JSON Schema counts them (a surrogate pair is one character).
    private static int CodePoints(string value) => value.Length - value.Count(char.IsLowSurrogate);

    private static string? Chars(string member, string value, int min, int max) =>
        CodePoints(value) is var n && n >= min && n <= max ? null : $"{member} must be {min} to {max} characters";

    // Free text is PostgreSQL text, which cannot hold U+0000.
    private static string? Text(string member, string value, int max) =>
        Chars(member, value, 1, max) ?? (value.Contains('\0') ? $"{member} must not contain U+0000" : null);

    // bcrypt reads at most 72 bytes: the upper limit is on the UTF-8 bytes.
    private static string? Password(string value, int min) =>
        CodePoints(value) < min ? $"password must be at least {min} characters"
        : Encoding.UTF8.GetByteCount(value) > 72 ? "password must be at most 72 bytes in UTF-8"
        : null;

    private static IResult InvalidId() => Problems.Result(Problems.InvalidParameter, "id must be an integer from 1 to 2147483647");

    private static IResult NotFound(string what) => Problems.Result(Problems.NotFound, $"no {what} with that id");

    private static IResult Forbidden(string detail) => Problems.Result(Problems.Forbidden, detail);
}
