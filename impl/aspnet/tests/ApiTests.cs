using System.Net.Http.Headers;
using System.Text;
using Fairbench.Aspnet.Auth;
using Fairbench.Aspnet.Handlers;
using Xunit;

namespace Fairbench.Aspnet.Tests;

/// <summary>The users, documents and sports APIs and the framework-made problems, on TestServer over fakes.</summary>
public class ApiTests : IClassFixture<TestApp>
{
    private readonly TestApp _app;

    public ApiTests(TestApp app)
    {
        _app = app;
    }

    private static string Token(string sub, string role) => TokenAuth.Issue(TestApp.Jwt, sub, role);

    [Fact]
    public async Task Problems_have_no_traceId_and_the_spec_type()
    {
        var reply = await _app.GetAsync("/nowhere");
        RestTests.AssertProblem(reply, 404, "not-found");
        Assert.False(reply.Body.TryGetProperty("traceId", out _));
    }

    [Theory]
    [InlineData("/Users")]
    [InlineData("/users/")]
    [InlineData("/DOCUMENTS/60b578809f2a2a8b5e000001")]
    public async Task Paths_are_exact(string path) => RestTests.AssertProblem(await _app.GetAsync(path), 404, "not-found");

    [Fact]
    public async Task Another_method_is_a_405_with_Allow()
    {
        using var response = await _app.Client.DeleteAsync("/users");
        RestTests.AssertProblem(await Reply.ReadAsync(response), 405, "method-not-allowed");
        Assert.Contains("GET", response.Content.Headers.Allow);
    }

    [Fact]
    public async Task Server_timing_on_every_answer()
    {
        var reply = await _app.GetAsync("/users/zz");
        Assert.Matches(@"^app;dur=\d+\.\d{3}$", reply.Headers.GetValues("Server-Timing").Single());
    }

    [Fact]
    public async Task Login_issues_a_token_that_opens_me()
    {
        var login = await _app.SendJsonAsync(HttpMethod.Post, "/auth/login", """{"username":"alice","password":"secret1"}""");
        Assert.Equal(200, login.Status);
        Assert.Equal("Bearer", login.Body.GetProperty("tokenType").GetString());
        var token = login.Body.GetProperty("token").GetString()!;
        var header = Encoding.UTF8.GetString(Convert.FromBase64String(token.Split('.')[0].PadRight(36, '=')));
        Assert.Contains("\"HS256\"", header);

        var me = await _app.SendAsync(HttpMethod.Get, "/me", null, token);
        Assert.Equal(200, me.Status);
        Assert.Equal(FakeUsersData.AliceId, me.Body.GetProperty("id").GetString());
        Assert.False(me.Body.TryGetProperty("password", out _));
    }

    [Theory]
    [InlineData("""{"username":"alice","password":"wrong11"}""")]
    [InlineData("""{"username":"nobody","password":"secret1"}""")]
    public async Task Bad_credentials_are_one_401(string body)
    {
        var reply = await _app.SendJsonAsync(HttpMethod.Post, "/auth/login", body);
        RestTests.AssertProblem(reply, 401, "unauthorized");
        Assert.Equal("Bearer", reply.Headers.WwwAuthenticate.Single().Scheme);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("not.a.token")]
    public async Task A_missing_or_bad_token_is_the_challenge_problem(string? token)
    {
        var reply = await _app.SendAsync(HttpMethod.Get, "/me", null, token);
        RestTests.AssertProblem(reply, 401, "unauthorized");
    }

    [Theory]
    [InlineData("exp", "\"4102444800\"")]
    [InlineData("nbf", "\"1000000000\"")]
    [InlineData("iat", "\"1000000000\"")]
    public async Task A_date_claim_written_as_a_string_is_401(string claim, string value)
    {
        // IdentityModel reads a string of digits as its number; RFC 7519's NumericDate is a JSON number (issue 51).
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        var claims = new Dictionary<string, string> { ["sub"] = $"\"{FakeUsersData.AliceId}\"", ["role"] = "\"user\"", ["iat"] = $"{now}", ["exp"] = $"{now + 60}", [claim] = value };
        var reply = await _app.SendAsync(HttpMethod.Get, "/me", null, SignedAsIs(claims));
        RestTests.AssertProblem(reply, 401, "unauthorized");
        claims[claim] = claim == "exp" ? $"{now + 60}" : $"{now - 60}";
        Assert.Equal(200, (await _app.SendAsync(HttpMethod.Get, "/me", null, SignedAsIs(claims))).Status);
    }

    /// <summary>An HS256 token whose payload is exactly these members (name -> JSON text).</summary>
    private static string SignedAsIs(Dictionary<string, string> members)
    {
        static string Part(string json) => Microsoft.IdentityModel.Tokens.Base64UrlEncoder.Encode(json);
        var unsigned = $"{Part("{\"alg\":\"HS256\",\"typ\":\"JWT\"}")}.{Part("{" + string.Join(",", members.Select(m => $"\"{m.Key}\":{m.Value}")) + "}")}";
        using var hmac = new System.Security.Cryptography.HMACSHA256(Encoding.UTF8.GetBytes(TestApp.Jwt.Secret));
        return $"{unsigned}.{Microsoft.IdentityModel.Tokens.Base64UrlEncoder.Encode(hmac.ComputeHash(Encoding.ASCII.GetBytes(unsigned)))}";
    }

    [Theory]
    [InlineData(new byte[] { 0xFF, 0xFE })]
    [InlineData(new byte[] { 0xC3 })]
    [InlineData(new byte[] { 0xC0, 0xAE })]
    [InlineData(new byte[] { 0xED, 0xA0, 0x80 })]
    public async Task A_body_that_is_not_UTF8_is_malformed(byte[] bad)
    {
        // System.Text.Json's reader does not look at the bytes inside a string; GetString threw (a 500, issue 51).
        byte[] body = [.. "{\"name\":\"A"u8, .. bad, .. "\",\"surname\":\"E\",\"username\":\"mallory\",\"password\":\"secret1\"}"u8];
        var content = new ByteArrayContent(body) { Headers = { ContentType = new MediaTypeHeaderValue("application/json") } };
        RestTests.AssertProblem(await _app.SendAsync(HttpMethod.Post, "/users", content), 400, "malformed-body");
    }

    [Theory]
    [InlineData("""{"name":"M","surname":"E","username":"mallory\n","password":"secret1"}""")]
    [InlineData("""{"name":"M","surname":"E","username":"mallory","password":"secret1","email":"m@example.com\n"}""")]
    public async Task A_final_newline_is_no_part_of_a_pattern(string body) =>
        // .NET's $ matches before a final newline: the patterns end in \z (issue 51).
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/users", body), 400, "invalid-body");

    [Fact]
    public async Task A_token_of_a_user_that_does_not_exist_is_401()
    {
        var reply = await _app.SendAsync(HttpMethod.Get, "/me", null, Token("60b578809f2a2a8b5e0000ff", "admin"));
        RestTests.AssertProblem(reply, 401, "unauthorized");
    }

    [Fact]
    public async Task The_stored_role_decides_not_the_claim()
    {
        RestTests.AssertProblem(await _app.SendAsync(HttpMethod.Get, "/admin/users", null, Token(FakeUsersData.AliceId, "admin")), 403, "forbidden");
        Assert.Equal(200, (await _app.SendAsync(HttpMethod.Get, "/admin/users", null, Token(FakeUsersData.RootId, "user"))).Status);
    }

    [Theory]
    [InlineData("""{"name":"M","surname":"E","username":"mallory","password":"secret1","role":"admin"}""", "invalid-body")]
    [InlineData("""{"name":1,"surname":"E","username":"mallory","password":"secret1"}""", "invalid-body")]
    [InlineData("""{"name":"M","surname":"E","username":"mallory"}""", "invalid-body")]
    [InlineData("""{"name":"M","surname":"E","username":"mallory","password":"éééééééééééééééééééééééééééééééééééééé"}""", "invalid-body")]
    [InlineData("""{"name": "M", """, "malformed-body")]
    [InlineData("", "invalid-body")]
    public async Task Registration_bodies_are_checked(string body, string problem) =>
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/users", body), 400, problem);

    [Fact]
    public async Task Registration_takes_json_only()
    {
        var reply = await _app.SendJsonAsync(HttpMethod.Post, "/users", "name=Ada", contentType: "application/x-www-form-urlencoded");
        RestTests.AssertProblem(reply, 415, "unsupported-media-type");
    }

    [Fact]
    public async Task A_deeply_nested_but_well_formed_body_is_invalid_not_a_crash()
    {
        // Well-formed JSON deeper than any user: the contract's invalid-body (issue 41), never a 500.
        var body = new string('[', 5000) + new string(']', 5000);
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/users", body), 400, "invalid-body");
    }

    [Fact]
    public async Task A_deeply_nested_truncated_body_is_malformed()
    {
        var body = new string('[', 5000);
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/users", body), 400, "malformed-body");
    }

    [Fact]
    public async Task A_body_over_64_KiB_is_413()
    {
        var body = "{\"name\":\"" + new string('x', 70000) + "\"}";
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/users", body), 413, "payload-too-large");
    }

    [Fact]
    public async Task Register_then_conflict()
    {
        const string body = """{"name":"N","surname":"S","username":"newbie","password":"secret1","email":"n@example.com"}""";
        var created = await _app.SendJsonAsync(HttpMethod.Post, "/users", body);
        Assert.Equal(201, created.Status);
        Assert.Equal($"/users/{created.Body.GetProperty("id").GetString()}", created.Headers.Location!.OriginalString);
        Assert.Equal("user", created.Body.GetProperty("role").GetString());
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/users", body), 409, "conflict");
    }

    [Fact]
    public async Task Another_user_may_not_change_alice()
    {
        var reply = await _app.SendJsonAsync(HttpMethod.Put, $"/users/{FakeUsersData.AliceId}", """{"name":"X"}""", Token(FakeUsersData.RootId, "user"));
        Assert.Equal(200, reply.Status); // root is an admin in the store, whatever the claim
        var refused = await _app.SendJsonAsync(HttpMethod.Put, $"/users/{FakeUsersData.RootId}", """{"name":"X"}""", Token(FakeUsersData.AliceId, "admin"));
        RestTests.AssertProblem(refused, 403, "forbidden");
    }

    [Fact]
    public async Task Documents_round_trip_in_member_order()
    {
        var text = new string('a', 1000);
        var created = await _app.SendJsonAsync(HttpMethod.Post, "/documents", $$"""{"kind":"text","payload":"{{text}}"}""");
        Assert.Equal(201, created.Status);
        var id = created.Body.GetProperty("id").GetString();
        var read = await _app.GetAsync($"/documents/{id}");
        Assert.Equal(text, read.Body.GetProperty("payload").GetString());
    }

    [Theory]
    [InlineData("""{"kind":"text","payload":"short"}""")]
    [InlineData("""{"kind":"poem","payload":"x"}""")]
    [InlineData("""{"kind":"text"}""")]
    [InlineData("[]")]
    [InlineData("""{"kind":"record","payload":{"__proto__":"x"}}""")]
    public async Task Document_shapes_are_checked(string body) =>
        RestTests.AssertProblem(await _app.SendJsonAsync(HttpMethod.Post, "/documents", body), 400, "invalid-body");

    [Fact]
    public async Task A_stalled_database_is_503_not_500()
    {
        var reply = await _app.SendJsonAsync(HttpMethod.Post, "/sports/login", """{"username":"u","password":"p"}""");
        RestTests.AssertProblem(reply, 503, "unavailable");
    }

    [Fact]
    public async Task A_stalled_database_while_loading_the_caller_is_503()
    {
        var reply = await _app.SendAsync(HttpMethod.Get, "/sports/sports-fields", null, Token("1", "user"));
        RestTests.AssertProblem(reply, 503, "unavailable");
    }

    [Theory]
    [InlineData("2030-02-30", 8, 9, "not a calendar date")]
    [InlineData("2000-01-01", 8, 9, "in the past")]
    [InlineData("2030-01-01", 9, 9, "after startHour")]
    [InlineData("2030-01-01", 8, 13, "at most 4 hours")]
    public void Reservation_rules(string date, int start, int end, string broken) =>
        Assert.Contains(broken, SportsHandlers.ReservationRuleBroken(new SportsReservationInput(1, date, start, end), new DateOnly(2026, 1, 1)));
}
