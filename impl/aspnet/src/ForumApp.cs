// The application's services and pipeline, shared by Program.cs (Kestrel, the real
// database) and the tests (TestServer, an in-memory IForumData registered after these).
//
// Pipeline (outermost first):
//   ServerTimingMiddleware  Server-Timing: app;dur=<ms> on every response, problems included
//   ProblemMiddleware    exceptions and bodiless 404/405 -> application/problem+json
//   ExactPathMiddleware  any path that is not exactly a mapped template -> 404 problem
//   routing + endpoints  GET REST routes (one route group), GET /health, POST /graphql

using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.GraphQLApi;
using Fairbench.Aspnet.Handlers;
using Fairbench.Aspnet.Http;
using Fairbench.Aspnet.Routes;
using MySqlConnector;

namespace Fairbench.Aspnet;

public static class ForumApp
{
    public static void ConfigureServices(WebApplicationBuilder builder, AppConfig config)
    {
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            // Bodies over 64 KiB are a 413 (the contract); Kestrel's default limit is ~28.6 MB.
            kestrel.Limits.MaxRequestBodySize = GraphQLEndpoint.MaxBodyBytes;
        });

        // No request logging: ASP.NET Core's own categories at Warning (also in appsettings.json;
        // repeated here so that a missing appsettings.json cannot turn request lines on).
        builder.Logging.AddFilter("Microsoft.AspNetCore", LogLevel.Warning);

        // One pool of exactly DB_POOL_SIZE connections, disposed with the container at shutdown.
        builder.Services.AddSingleton(_ => new MySqlDataSource(config.MySqlConnectionString));
        builder.Services.AddSingleton<IForumData, ForumData>();
        builder.Services.AddSingleton<ForumHandlers>();
        builder.Services.AddSingleton<ForumSchema>();
        builder.Services.AddSingleton<GraphQLEndpoint>();
    }

    public static void ConfigurePipeline(WebApplication app)
    {
        // Build the GraphQL schema now, so that a schema error stops the start instead of the first request.
        app.Services.GetRequiredService<ForumSchema>().Initialize();

        // First, so that the time covers everything the pipeline does, error answers included.
        app.UseMiddleware<ServerTimingMiddleware>();
        app.UseMiddleware<ProblemMiddleware>();
        app.UseMiddleware<ExactPathMiddleware>();
        app.UseRouting();
        app.MapForumApi();
    }
}
