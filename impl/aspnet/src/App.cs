// The application's services and pipeline, shared by Program.cs (Kestrel, the real
// databases) and the tests (TestServer, in-memory data layers registered after these).
// An API is served when its database URL is set (Config); its routes are one route group.
//
// Pipeline (outermost first):
//   Server-Timing        app;dur=<ms> on every response, problems included
//   UseExceptionHandler  413 / 400 / 503 (ClientAndDatabaseExceptionHandler), else 500, as problems
//   UseStatusCodePages   the bodiless 404 and 405 routing answers -> problems
//   ExactPathMiddleware  a path that is not exactly a route pattern -> 404
//   routing, authentication, authorization, the endpoints

using System.Text.Json;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Http;
using Fairbench.Aspnet.Routes;

namespace Fairbench.Aspnet;

public static class App
{
    /// <summary>The largest request body of the forum, users, tpcc and sports APIs (64 KiB).</summary>
    public const int BodyLimit = 64 * 1024;

    /// <summary>The documents API's (512 KiB), the largest of all.</summary>
    public const int DocumentsBodyLimit = 512 * 1024;

    public static void ConfigureServices(WebApplicationBuilder builder, AppConfig config)
    {
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            // The largest limit of any route (documents: 512 KiB) and what is drained past it (JsonBody.DrainBytes);
            // each route lowers it for its request.
            kestrel.Limits.MaxRequestBodySize = DocumentsBodyLimit + JsonBody.DrainBytes;
            kestrel.AddServerHeader = false;
        });

        builder.Services.AddProblemDetails(options => options.CustomizeProblemDetails = Problems.Customize);
        builder.Services.AddExceptionHandler<ClientAndDatabaseExceptionHandler>();
        builder.Services.ConfigureHttpJsonOptions(options =>
        {
            options.SerializerOptions.TypeInfoResolverChain.Insert(0, AppJsonContext.Default);
            options.SerializerOptions.TypeInfoResolverChain.Insert(1, TpccJsonContext.Default);
            options.SerializerOptions.MaxDepth = JsonBody.MaxDepth;
        });

        // Schemes and policies are added by the APIs with tokens (users, sports).
        builder.Services.AddAuthentication();
        builder.Services.AddAuthorization();

        if (config.MySql is not null)
        {
            ForumRoutes.AddServices(builder.Services, config);
            TpccRoutes.AddServices(builder.Services);
        }

        if (config.MongoUrl is not null)
        {
            MongoSetup.AddServices(builder.Services, config);
            UsersRoutes.AddServices(builder.Services, config);
            DocumentsRoutes.AddServices(builder.Services);
        }

        if (config.PostgresUrl is not null)
        {
            SportsRoutes.AddServices(builder.Services, config);
        }
    }

    public static void ConfigurePipeline(WebApplication app)
    {
        app.UseMiddleware<ServerTimingMiddleware>();
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.UseMiddleware<ExactPathMiddleware>();
        app.UseRouting();
        app.UseAuthentication();
        app.UseAuthorization();

        app.MapMethods("/health", ["GET"], () => TypedResults.Ok(new HealthStatus("ok")));
        var services = app.Services;
        if (services.GetService<IForumData>() is not null)
        {
            app.MapForumApi();
        }

        if (services.GetService<ITpccData>() is not null)
        {
            app.MapTpccApi();
        }

        if (services.GetService<IUsersData>() is not null)
        {
            app.MapUsersApi();
        }

        if (services.GetService<IDocumentsData>() is not null)
        {
            app.MapDocumentsApi();
        }

        if (services.GetService<ISportsData>() is not null)
        {
            app.MapSportsApi();
        }
    }
}

/// <summary>The body of <c>GET /health</c>.</summary>
public sealed record HealthStatus(string Status);
