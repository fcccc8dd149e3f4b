// Handlers of the users API: check the request, call the data layer, answer. The token is
// checked before these run (the route group's authorization); the caller is then the
// stored user it belongs to (TokenAuth.Caller).

using System.Text;
using System.Text.RegularExpressions;
using Fairbench.Aspnet.Auth;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Http;

namespace Fairbench.Aspnet.Handlers;

/// <summary>The body of POST /users (UserRegistration).</summary>
public sealed record UserRegistration(string Name, string Surname, string Username, string Password, string? Email = null);

/// <summary>The body of PUT /users/{id} (UserUpdate).</summary>
public sealed record UserUpdate(string? Name = null, string? Surname = null);

/// <summary>The body of POST /auth/login (LoginRequest).</summary>
public sealed record LoginRequest(string Username, string Password);

public sealed record LoginResponse(string Token, string TokenType, int ExpiresIn);

public sealed partial class UsersHandlers(IUsersData data, JwtSettings jwt, PasswordHashing passwords)
{
    private const int DefaultLimit = 100;
    private const int PasswordMaxBytes = 72;
    private const string BadCredentials = "username or password is wrong";

    [GeneratedRegex(@"^[0-9a-f]{24}\z")]
    public static partial Regex ObjectIdPattern();

    [GeneratedRegex(@"^[A-Za-z0-9._-]+\z")]
    private static partial Regex UsernamePattern();

    // An addr-spec without comments or quoting: local@domain, a dot in the domain, no spaces.
    [GeneratedRegex(@"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+\z")]
    private static partial Regex EmailPattern();

    public async Task<IResult> ListAsync(HttpContext http)
    {
        if (!QueryLimit(http, out var limit))
        {
            return Problems.Result(Problems.InvalidParameter, "limit must be an integer from 1 to 100");
        }

        return TypedResults.Ok(await data.ListAsync(limit));
    }

    public async Task<IResult> RegisterAsync(HttpContext http)
    {
        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.UserRegistration, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var registration = body.Value!;
        var invalid = CheckName("name", registration.Name) ?? CheckName("surname", registration.Surname)
            ?? CheckUsername(registration.Username) ?? CheckPassword(registration.Password, 6) ?? CheckEmail(registration.Email);
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        var hash = await passwords.HashAsync(registration.Password);
        try
        {
            var user = await data.CreateAsync(new UserDocument
            {
                Name = registration.Name,
                Surname = registration.Surname,
                Username = registration.Username,
                Email = registration.Email,
                Password = hash,
                Salt = hash[..29],
                Role = "user",
            });
            return TypedResults.Created($"/users/{user.Id}", user);
        }
        catch (UsernameTakenException)
        {
            return Problems.Result(Problems.Conflict, $"username {registration.Username} is taken");
        }
    }

    public async Task<IResult> GetAsync(string id)
    {
        if (!ObjectIdPattern().IsMatch(id))
        {
            return InvalidId();
        }

        var user = await data.ByIdAsync(id);
        return user is null ? Problems.Result(Problems.NotFound, $"no user with id {id}") : TypedResults.Ok(user);
    }

    public async Task<IResult> UpdateAsync(string id, HttpContext http)
    {
        if (Target(id, http) is { } refused)
        {
            return refused;
        }

        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.UserUpdate, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var changes = body.Value!;
        var invalid = changes is { Name: null, Surname: null }
            ? "give name and/or surname"
            : (changes.Name is null ? null : CheckName("name", changes.Name)) ?? (changes.Surname is null ? null : CheckName("surname", changes.Surname));
        if (invalid is not null)
        {
            return JsonBody.Invalid(invalid);
        }

        var user = await data.UpdateAsync(id, changes.Name, changes.Surname);
        return user is null ? Problems.Result(Problems.NotFound, $"no user with id {id}") : TypedResults.Ok(user);
    }

    public async Task<IResult> RemoveAsync(string id, HttpContext http)
    {
        if (Target(id, http) is { } refused)
        {
            return refused;
        }

        return await data.RemoveAsync(id) ? TypedResults.NoContent() : Problems.Result(Problems.NotFound, $"no user with id {id}");
    }

    public async Task<IResult> LoginAsync(HttpContext http)
    {
        var body = await JsonBody.ReadAsync(http, AppJsonContext.Default.LoginRequest, App.BodyLimit);
        if (!body.Ok)
        {
            return body.Problem!;
        }

        var credentials = body.Value!;
        var invalid = credentials.Username.Length is < 1 or > 64 ? "username must be 1 to 64 characters" : CheckPassword(credentials.Password, 1);
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

        return TypedResults.Ok(new LoginResponse(TokenAuth.Issue(jwt, user.User.Id, user.User.Role), "Bearer", jwt.LifetimeSeconds));
    }

    public static IResult Me(HttpContext http) => TypedResults.Ok((User)http.Caller().User);

    /// <summary>PUT/DELETE /users/{id}: a valid id (400) the caller may change (403): themself, or anyone for an admin.</summary>
    private static IResult? Target(string id, HttpContext http)
    {
        if (!ObjectIdPattern().IsMatch(id))
        {
            return InvalidId();
        }

        var caller = http.Caller();
        return caller.Id == id || caller.Role == "admin"
            ? null
            : Problems.Result(Problems.Forbidden, "only the user themself or an admin may do this");
    }

    /// <summary>?limit=: absent is 100; else one value, 1..100 in canonical decimal form.</summary>
    private static bool QueryLimit(HttpContext http, out int limit)
    {
        limit = DefaultLimit;
        if (!http.Request.Query.TryGetValue("limit", out var values))
        {
            return true;
        }

        return values.Count == 1 && Params.TryParseLimit(values[0], out limit);
    }

    private static IResult InvalidId() => Problems.Result(Problems.InvalidParameter, "id must be a user id (24 lowercase hexadecimal digits)");

    private static string? CheckName(string member, string value) =>
        value.Length is >= 1 and <= 100 ? null : $"{member} must be 1 to 100 characters";

    private static string? CheckUsername(string value) =>
        value.Length is >= 3 and <= 64 && UsernamePattern().IsMatch(value) ? null : "username must be 3 to 64 of A-Z a-z 0-9 . _ -";

    // bcrypt reads at most 72 bytes: the limit is on the UTF-8 bytes, not the characters.
    private static string? CheckPassword(string value, int minChars) =>
        value.Length < minChars ? $"password must be at least {minChars} characters"
        : Encoding.UTF8.GetByteCount(value) > PasswordMaxBytes ? $"password must be at most {PasswordMaxBytes} bytes in UTF-8"
        : null;

    private static string? CheckEmail(string? value) =>
        value is null || (value.Length <= 254 && EmailPattern().IsMatch(value)) ? null : "email must be an email address";
}
