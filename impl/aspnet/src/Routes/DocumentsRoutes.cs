// The documents API's paths -> handlers, one route group. Bodies up to 512 KiB (App.DocumentsBodyLimit).

using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Handlers;

namespace Fairbench.Aspnet.Routes;

public static class DocumentsRoutes
{
    public static void AddServices(IServiceCollection services)
    {
        services.AddSingleton<IDocumentsData, DocumentsData>();
        services.AddSingleton<DocumentsHandlers>();
    }

    public static IEndpointRouteBuilder MapDocumentsApi(this IEndpointRouteBuilder endpoints)
    {
        var handlers = endpoints.ServiceProvider.GetRequiredService<DocumentsHandlers>();
        var documents = endpoints.MapGroup("/documents");
        // Typed as Func: an (HttpContext) -> Task<IResult> lambda would bind to the RequestDelegate overload, which drops the result.
        Func<HttpContext, Task<IResult>> create = handlers.CreateAsync;
        documents.MapPost(string.Empty, create);
        documents.MapGet("/{id}", (string id) => handlers.GetAsync(id));
        documents.MapPut("/{id}", (string id, HttpContext http) => handlers.ReplaceAsync(id, http));
        documents.MapDelete("/{id}", (string id) => handlers.RemoveAsync(id));
        return endpoints;
    }
}
