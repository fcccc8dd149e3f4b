// The forum API's paths -> handlers: one route group with the four REST reads and POST
// /graphql (GraphQLEndpoint reads and answers the request itself). Another method on a
// known path is routing's 405 (made a problem by the status-code pages, with Allow); exact
// paths are ExactPathMiddleware's.

using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.GraphQLApi;
using Fairbench.Aspnet.Handlers;
using GraphQL;
using MySqlConnector;

namespace Fairbench.Aspnet.Routes;

public static class ForumRoutes
{
    /// <summary>The MySQL pool (shared with tpcc: one pool of DB_POOL_SIZE) and the forum's services.</summary>
    public static void AddServices(IServiceCollection services, AppConfig config)
    {
        services.AddMySqlDataSource(config.MySqlConnectionString);
        services.AddSingleton<IForumData, ForumData>();
        services.AddSingleton<ForumHandlers>();
        services.AddSingleton<ForumSchema>();
        // GraphQL.NET's services the way its docs register them (GraphQL.MicrosoftDI): the
        // DocumentExecuter and the System.Text.Json serializer; extensions.code is written
        // (BAD_USER_INPUT, INTERNAL_SERVER_ERROR, validation codes), not the "codes" list beside it.
        services.AddGraphQL(graphql => graphql
            .AddSystemTextJson()
            .AddErrorInfoProvider(options => options.ExposeCodes = false));
        services.AddSingleton<GraphQLEndpoint>();
    }

    public static IEndpointRouteBuilder MapForumApi(this IEndpointRouteBuilder endpoints)
    {
        // Build the GraphQL schema now, so that a schema error stops the start instead of the first request.
        endpoints.ServiceProvider.GetRequiredService<ForumSchema>().Initialize();
        var handlers = endpoints.ServiceProvider.GetRequiredService<ForumHandlers>();
        var graphql = endpoints.ServiceProvider.GetRequiredService<GraphQLEndpoint>();

        var forum = endpoints.MapGroup(string.Empty);
        forum.MapGet("/comment/{id}", (string id) => handlers.CommentByIdAsync(id));
        forum.MapGet("/comments/{limit}", (string limit) => handlers.CommentsAsync(limit));
        forum.MapGet("/user/{id}/comment", (string id) => handlers.FirstCommentByUserIdAsync(id));
        forum.MapGet("/user/{id}/comments/{limit}", (string id, string limit) => handlers.CommentsByUserIdAsync(id, limit));
        forum.MapPost("/graphql", graphql.HandleAsync);
        return endpoints;
    }
}
