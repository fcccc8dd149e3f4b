using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Fairbench.Aspnet.Data;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Xunit;

namespace Fairbench.Aspnet.Tests;

/// <summary>The whole application (ForumApp) on TestServer, over <see cref="FakeForumData"/>.</summary>
public sealed class TestApp : IAsyncLifetime
{
    public static readonly JwtSettings Jwt = new("test-secret-of-at-least-thirty-two-bytes", 3600);

    // Every database URL set (so every API is mapped); nothing connects: the data layers are fakes.
    private static readonly AppConfig Config = new(
        "127.0.0.1",
        0,
        4,
        new MySqlEndpoint("127.0.0.1", 3306, "root", "pw", "forum"),
        "mongodb://127.0.0.1:27017/fairbench",
        "postgres://u:p@127.0.0.1:5432/sports",
        Jwt);

    public FakeUsersData Users { get; } = new();

    private WebApplication? _app;

    public HttpClient Client { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var builder = WebApplication.CreateBuilder();
        builder.WebHost.UseTestServer();
        App.ConfigureServices(builder, Config);
        builder.Services.AddSingleton<IForumData>(new FakeForumData());
        builder.Services.AddSingleton<IUsersData>(Users);
        builder.Services.AddSingleton<IDocumentsData>(new FakeDocumentsData());
        builder.Services.AddSingleton<ISportsData>(new StalledSportsData());

        _app = builder.Build();
        App.ConfigurePipeline(_app);
        await _app.StartAsync();
        Client = _app.GetTestClient();
    }

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        if (_app is not null)
        {
            await _app.StopAsync();
            await _app.DisposeAsync();
        }
    }

    public async Task<Reply> SendAsync(HttpMethod method, string path, HttpContent? content = null, string? token = null)
    {
        using var request = new HttpRequestMessage(method, path) { Content = content };
        if (token is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        using var response = await Client.SendAsync(request);
        return await Reply.ReadAsync(response);
    }

    public Task<Reply> GetAsync(string path) => SendAsync(HttpMethod.Get, path);

    public async Task<Reply> SendJsonAsync(HttpMethod method, string path, string json, string? token = null, string contentType = "application/json")
    {
        using var request = new HttpRequestMessage(method, path) { Content = new StringContent(json, Encoding.UTF8, contentType) };
        if (token is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
        }

        using var response = await Client.SendAsync(request);
        return await Reply.ReadAsync(response);
    }

    public Task<Reply> PostGraphQLAsync(string json, string contentType = "application/json") =>
        SendAsync(HttpMethod.Post, "/graphql", new StringContent(json, Encoding.UTF8, contentType));

    /// <summary>POST /graphql with {query, variables?, operationName?}.</summary>
    public Task<Reply> GraphQLAsync(string query, object? variables = null, string? operationName = null)
    {
        var body = new Dictionary<string, object?> { ["query"] = query };
        if (variables is not null)
        {
            body["variables"] = variables;
        }

        if (operationName is not null)
        {
            body["operationName"] = operationName;
        }

        return PostGraphQLAsync(JsonSerializer.Serialize(body));
    }
}

/// <summary>A response read whole: status, media type, headers and the parsed JSON body (if any).</summary>
public sealed record Reply(int Status, string? MediaType, HttpResponseHeaders Headers, string Text, JsonElement? Json)
{
    public static async Task<Reply> ReadAsync(HttpResponseMessage response)
    {
        var text = await response.Content.ReadAsStringAsync();
        JsonElement? json = null;
        if (text.Length > 0)
        {
            try
            {
                using var document = JsonDocument.Parse(text);
                json = document.RootElement.Clone();
            }
            catch (JsonException)
            {
                json = null;
            }
        }

        return new Reply((int)response.StatusCode, response.Content.Headers.ContentType?.MediaType, response.Headers, text, json);
    }

    public JsonElement Body => Json ?? throw new InvalidOperationException($"HTTP {Status}: body is not JSON: {Text}");
}
