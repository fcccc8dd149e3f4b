// The users API's paths -> handlers, one route group. Operations that need a token require
// the "users" policy (JwtBearer scheme "users"); /admin/users the stored role admin.

using Fairbench.Aspnet.Auth;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Handlers;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace Fairbench.Aspnet.Routes;

public static class UsersRoutes
{
    public const string Scheme = "users";
    public const string AdminPolicy = "users-admin";

    public static void AddServices(IServiceCollection services, AppConfig config)
    {
        var jwt = config.Jwt!;
        services.AddSingleton<IUsersData, UsersData>();
        services.TryAddSingleton<PasswordHashing>();
        services.AddSingleton(provider => new UsersHandlers(provider.GetRequiredService<IUsersData>(), jwt, provider.GetRequiredService<PasswordHashing>()));
        services.AddAuthentication().AddTokenScheme(Scheme, jwt, sub => UsersHandlers.ObjectIdPattern().IsMatch(sub), async (provider, sub) =>
            await provider.GetRequiredService<IUsersData>().ByIdAsync(sub) is { } user ? new Caller(user.Id, user.Role, user) : null);
        services.AddAuthorizationBuilder()
            .AddPolicy(Scheme, policy => policy.AddAuthenticationSchemes(Scheme).RequireAuthenticatedUser())
            .AddPolicy(AdminPolicy, policy => policy.AddAuthenticationSchemes(Scheme).RequireRole("admin"));
    }

    public static IEndpointRouteBuilder MapUsersApi(this IEndpointRouteBuilder endpoints)
    {
        var handlers = endpoints.ServiceProvider.GetRequiredService<UsersHandlers>();
        // Typed as Func: a method group (HttpContext) -> Task<IResult> would bind to the
        // RequestDelegate overload, which drops the result.
        Func<HttpContext, Task<IResult>> list = handlers.ListAsync, register = handlers.RegisterAsync, login = handlers.LoginAsync;
        Func<HttpContext, IResult> me = UsersHandlers.Me;
        var users = endpoints.MapGroup(string.Empty);
        users.MapGet("/users", list);
        users.MapPost("/users", register);
        users.MapGet("/users/{id}", (string id) => handlers.GetAsync(id));
        users.MapPut("/users/{id}", (string id, HttpContext http) => handlers.UpdateAsync(id, http)).RequireAuthorization(Scheme);
        users.MapDelete("/users/{id}", (string id, HttpContext http) => handlers.RemoveAsync(id, http)).RequireAuthorization(Scheme);
        users.MapPost("/auth/login", login);
        users.MapGet("/me", me).RequireAuthorization(Scheme);
        users.MapGet("/admin/users", list).RequireAuthorization(AdminPolicy);
        return endpoints;
    }
}
