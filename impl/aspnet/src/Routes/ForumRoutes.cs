// The forum API's paths -> handlers. REST is one route group; POST /graphql is its own
// endpoint (GraphQLEndpoint reads and answers the request itself).
//
// What ASP.NET Core routing does not do the contract's way is handled around it:
// - routing ignores case and a trailing slash, but the contract's paths are exact
//   (/COMMENT/1 and /comment/1/ are unknown paths): ExactPathMiddleware answers 404 for
//   any path that is not exactly one of ForumPaths.All before routing runs;
// - a known path with another method is routed to the framework's 405 endpoint, which
//   has no body: ProblemMiddleware writes the 405 problem (the Allow header stays).
// There is deliberately no MapFallback: a catch-all endpoint accepts every method, so
// routing would send e.g. POST /comment/1 to it instead of answering 405.

using Fairbench.Aspnet.GraphQLApi;
using Fairbench.Aspnet.Handlers;

namespace Fairbench.Aspnet.Routes;

public static class ForumPaths
{
    public const string Health = "/health";
    public const string CommentById = "/comment/{id}";
    public const string Comments = "/comments/{limit}";
    public const string UserFirstComment = "/user/{id}/comment";
    public const string UserComments = "/user/{id}/comments/{limit}";
    public const string GraphQL = "/graphql";

    /// <summary>Every route template the application maps (ExactPathMiddleware checks paths against these).</summary>
    public static readonly IReadOnlyList<string> All = new[] { Health, CommentById, Comments, UserFirstComment, UserComments, GraphQL };
}

public static class ForumRoutes
{
    public static IEndpointRouteBuilder MapForumApi(this IEndpointRouteBuilder endpoints)
    {
        var handlers = endpoints.ServiceProvider.GetRequiredService<ForumHandlers>();
        var graphql = endpoints.ServiceProvider.GetRequiredService<GraphQLEndpoint>();

        endpoints.MapGet(ForumPaths.Health, () => ForumHandlers.Health());

        var rest = endpoints.MapGroup(string.Empty);
        rest.MapGet(ForumPaths.CommentById, (string id, HttpContext http) => handlers.CommentByIdAsync(id, http));
        rest.MapGet(ForumPaths.Comments, (string limit, HttpContext http) => handlers.CommentsAsync(limit, http));
        rest.MapGet(ForumPaths.UserFirstComment, (string id, HttpContext http) => handlers.FirstCommentByUserIdAsync(id, http));
        rest.MapGet(ForumPaths.UserComments, (string id, string limit, HttpContext http) => handlers.CommentsByUserIdAsync(id, limit, http));

        RequestDelegate graphqlHandler = graphql.HandleAsync;
        endpoints.MapPost(ForumPaths.GraphQL, graphqlHandler);

        return endpoints;
    }
}
