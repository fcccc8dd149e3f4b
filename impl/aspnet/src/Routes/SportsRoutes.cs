// The sports API's paths -> handlers, one route group under /sports. Every operation except
// login and sign-up requires the "sports" policy (JwtBearer scheme "sports": sub is a
// decimal user id, the stored user is loaded).

using Fairbench.Aspnet.Auth;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Handlers;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Npgsql;

namespace Fairbench.Aspnet.Routes;

public static class SportsRoutes
{
    public const string Scheme = "sports";

    public static void AddServices(IServiceCollection services, AppConfig config)
    {
        var jwt = config.Jwt!;
        services.AddSingleton(_ => NpgsqlDataSource.Create(config.PostgresConnectionString));
        services.AddSingleton<ISportsData, SportsData>();
        services.TryAddSingleton<PasswordHashing>();
        services.AddSingleton(provider => new SportsHandlers(provider.GetRequiredService<ISportsData>(), jwt, provider.GetRequiredService<PasswordHashing>()));
        services.AddAuthentication().AddTokenScheme(Scheme, jwt, sub => Params.TryParseId(sub, out _), async (provider, sub) =>
        {
            Params.TryParseId(sub, out var id);
            return await provider.GetRequiredService<ISportsData>().UserByIdAsync(id) is { } user
                ? new Caller(sub, user.Role, user)
                : null;
        });
        services.AddAuthorizationBuilder().AddPolicy(Scheme, policy => policy.AddAuthenticationSchemes(Scheme).RequireAuthenticatedUser());
    }

    public static IEndpointRouteBuilder MapSportsApi(this IEndpointRouteBuilder endpoints)
    {
        var h = endpoints.ServiceProvider.GetRequiredService<SportsHandlers>();
        // Typed as Func: an (HttpContext) -> Task<IResult> method group would bind to the
        // RequestDelegate overload, which drops the result.
        Func<HttpContext, Task<IResult>> login = h.LoginAsync, register = h.RegisterAsync, facilities = h.FacilitiesAsync,
            fields = h.FieldsAsync, reservations = h.ReservationsAsync, reserve = h.ReserveAsync;

        var sports = endpoints.MapGroup("/sports");
        sports.MapPost("/login", login);
        sports.MapPost("/users", register);

        var authed = sports.MapGroup(string.Empty).RequireAuthorization(Scheme);
        authed.MapGet("/users/{id}", (string id) => h.UserAsync(id));
        authed.MapGet("/sports-facilities", facilities);
        authed.MapGet("/sports-facilities/{id}", (string id) => h.FacilityAsync(id));
        authed.MapPost("/sports-facilities/{id}/sports-field", (string id, HttpContext http) => h.CreateFieldAsync(id, http));
        authed.MapGet("/sports-fields", fields);
        authed.MapGet("/sports-fields/{id}", (string id) => h.FieldAsync(id));
        authed.MapGet("/reservations", reservations);
        authed.MapPost("/reservations", reserve);
        authed.MapGet("/reservations/{id}", (string id, HttpContext http) => h.ReservationAsync(id, http));
        authed.MapPut("/reservations/{id}/status", (string id, HttpContext http) => h.DecideAsync(id, http));
        authed.MapGet("/reservations/{id}/rating", (string id, HttpContext http) => h.RatingAsync(id, http));
        authed.MapPost("/reservations/{id}/rating", (string id, HttpContext http) => h.RateAsync(id, http));
        return endpoints;
    }
}
