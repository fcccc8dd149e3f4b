using System.Text.Json;
using Xunit;

namespace Fairbench.Aspnet.Tests;

public class RestTests : IClassFixture<TestApp>
{
    private static readonly string[] ProblemMembers = { "type", "title", "status", "detail", "instance" };

    private readonly TestApp _app;

    public RestTests(TestApp app)
    {
        _app = app;
    }

    internal static void AssertProblem(Reply reply, int status, string type)
    {
        Assert.Equal(status, reply.Status);
        Assert.Equal("application/problem+json", reply.MediaType);
        var body = reply.Body;
        Assert.Equal(JsonValueKind.Object, body.ValueKind);
        Assert.Equal("urn:fairbench:problem:" + type, body.GetProperty("type").GetString());
        Assert.Equal(status, body.GetProperty("status").GetInt32());
        Assert.Equal(JsonValueKind.String, body.GetProperty("title").ValueKind);
        foreach (var member in body.EnumerateObject())
        {
            Assert.Contains(member.Name, ProblemMembers);
            Assert.True(member.Name == "status" ? member.Value.ValueKind == JsonValueKind.Number : member.Value.ValueKind == JsonValueKind.String);
        }
    }

    private static string[] PropertyNames(JsonElement element) =>
        element.EnumerateObject().Select(p => p.Name).ToArray();

    [Fact]
    public async Task Health_is_ok()
    {
        var reply = await _app.GetAsync("/health");
        Assert.Equal(200, reply.Status);
        Assert.Equal("application/json", reply.MediaType);
        Assert.Equal(new[] { "status" }, PropertyNames(reply.Body));
        Assert.Equal("ok", reply.Body.GetProperty("status").GetString());
    }

    [Fact]
    public async Task Comment_by_id_has_the_column_names_and_null_dates()
    {
        var reply = await _app.GetAsync("/comment/1");
        Assert.Equal(200, reply.Status);
        var body = reply.Body;
        Assert.Equal(new[] { "comment_id", "thread_id", "user_id", "body", "datemade", "datelastupdated" }, PropertyNames(body));
        Assert.Equal(1, body.GetProperty("comment_id").GetInt32());
        Assert.Equal("voluptas et quia", body.GetProperty("body").GetString());
        Assert.Equal("2020-11-03", body.GetProperty("datemade").GetString());
        Assert.Equal(JsonValueKind.Null, body.GetProperty("datelastupdated").ValueKind);
    }

    [Fact]
    public async Task Unknown_comment_is_a_404_problem()
    {
        AssertProblem(await _app.GetAsync("/comment/999999"), 404, "not-found");
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("1.5")]
    [InlineData("0")]
    [InlineData("-1")]
    [InlineData("01")]
    [InlineData("+1")]
    [InlineData("2147483648")]
    [InlineData("99999999999999999999")]
    [InlineData("1e3")]
    [InlineData("0x10")]
    [InlineData(" 1")]
    [InlineData("1' OR '1'='1")]
    [InlineData("1;DROP TABLE comment")]
    [InlineData("１")]
    public async Task Invalid_comment_ids_are_400_naming_the_parameter(string value)
    {
        var reply = await _app.GetAsync("/comment/" + Uri.EscapeDataString(value));
        AssertProblem(reply, 400, "invalid-parameter");
        Assert.Contains("'id'", reply.Body.GetProperty("detail").GetString());
    }

    [Theory]
    [InlineData("/comments/0", "limit")]
    [InlineData("/comments/101", "limit")]
    [InlineData("/comments/01", "limit")]
    [InlineData("/user/abc/comment", "id")]
    [InlineData("/user/2147483648/comments/10", "id")]
    [InlineData("/user/1/comments/101", "limit")]
    [InlineData("/user/0/comments/0", "id")]
    public async Task Invalid_parameters_are_400_naming_the_parameter(string path, string parameter)
    {
        var reply = await _app.GetAsync(path);
        AssertProblem(reply, 400, "invalid-parameter");
        Assert.Contains($"'{parameter}'", reply.Body.GetProperty("detail").GetString());
    }

    [Fact]
    public async Task Comments_are_the_first_rows_by_comment_id()
    {
        var reply = await _app.GetAsync("/comments/2");
        Assert.Equal(200, reply.Status);
        Assert.Equal(new[] { 1, 2 }, reply.Body.EnumerateArray().Select(c => c.GetProperty("comment_id").GetInt32()).ToArray());
    }

    [Fact]
    public async Task A_users_first_comment_nests_the_user()
    {
        var reply = await _app.GetAsync("/user/1/comment");
        Assert.Equal(200, reply.Status);
        var body = reply.Body;
        Assert.Equal(new[] { "comment_id", "thread_id", "user_id", "body", "datemade", "datelastupdated", "user" }, PropertyNames(body));
        Assert.Equal(1, body.GetProperty("comment_id").GetInt32());
        var user = body.GetProperty("user");
        Assert.Equal(new[] { "user_id", "name", "email", "phone", "datemade", "datelastupdated" }, PropertyNames(user));
        Assert.Equal(1, user.GetProperty("user_id").GetInt32());
    }

    [Theory]
    [InlineData("/user/2/comment")]
    [InlineData("/user/3/comment")]
    [InlineData("/user/99/comment")]
    public async Task No_first_comment_is_a_404(string path)
    {
        AssertProblem(await _app.GetAsync(path), 404, "not-found");
    }

    [Fact]
    public async Task A_users_comments_are_joined_and_limited()
    {
        var reply = await _app.GetAsync("/user/1/comments/2");
        Assert.Equal(200, reply.Status);
        Assert.Equal(new[] { 1, 2 }, reply.Body.EnumerateArray().Select(c => c.GetProperty("comment_id").GetInt32()).ToArray());
    }

    [Fact]
    public async Task A_user_without_comments_has_an_empty_list()
    {
        var reply = await _app.GetAsync("/user/2/comments/5");
        Assert.Equal(200, reply.Status);
        Assert.Equal(JsonValueKind.Array, reply.Body.ValueKind);
        Assert.Equal(0, reply.Body.GetArrayLength());
    }

    [Fact]
    public async Task Comments_of_a_user_that_does_not_exist_are_a_404()
    {
        AssertProblem(await _app.GetAsync("/user/99/comments/5"), 404, "not-found");
    }

    [Theory]
    [InlineData("/")]
    [InlineData("/comment")]
    [InlineData("/comments")]
    [InlineData("/user/1")]
    [InlineData("/user/1/comments")]
    [InlineData("/users/1/comment")]
    [InlineData("/nope")]
    [InlineData("/comment/1/extra")]
    [InlineData("/COMMENT/1")]
    [InlineData("/Comment/1")]
    [InlineData("/comment/1/")]
    [InlineData("/HEALTH")]
    [InlineData("/GraphQL")]
    public async Task Unknown_paths_are_404_problems(string path)
    {
        AssertProblem(await _app.GetAsync(path), 404, "not-found");
    }

    [Theory]
    [InlineData("POST", "/comment/1")]
    [InlineData("DELETE", "/comment/1")]
    [InlineData("PUT", "/comments/5")]
    [InlineData("PATCH", "/user/1/comment")]
    [InlineData("POST", "/user/1/comments/5")]
    [InlineData("POST", "/health")]
    [InlineData("GET", "/graphql")]
    [InlineData("PUT", "/graphql")]
    public async Task Other_methods_on_known_paths_are_405_problems(string method, string path)
    {
        var reply = await _app.SendAsync(new HttpMethod(method), path);
        AssertProblem(reply, 405, "method-not-allowed");
    }
}
