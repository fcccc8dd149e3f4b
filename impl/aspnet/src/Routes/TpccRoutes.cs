// The tpcc API's paths -> handlers, one route group: one POST per TPC-C transaction.

using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Handlers;

namespace Fairbench.Aspnet.Routes;

public static class TpccRoutes
{
    /// <summary>The tpcc services (the MySQL pool is the forum's: ForumRoutes adds it).</summary>
    public static void AddServices(IServiceCollection services)
    {
        services.AddSingleton<ITpccData, TpccData>();
        services.AddSingleton<TpccHandlers>();
    }

    public static IEndpointRouteBuilder MapTpccApi(this IEndpointRouteBuilder endpoints)
    {
        var h = endpoints.ServiceProvider.GetRequiredService<TpccHandlers>();
        // Typed as Func: an (HttpContext) -> Task<IResult> method group would bind to the
        // RequestDelegate overload, which drops the result.
        Func<HttpContext, Task<IResult>> newOrder = h.NewOrderAsync, payment = h.PaymentAsync, orderStatus = h.OrderStatusAsync,
            delivery = h.DeliveryAsync, stockLevel = h.StockLevelAsync;
        var tpcc = endpoints.MapGroup("/tpcc");
        tpcc.MapPost("/new-order", newOrder);
        tpcc.MapPost("/payment", payment);
        tpcc.MapPost("/order-status", orderStatus);
        tpcc.MapPost("/delivery", delivery);
        tpcc.MapPost("/stock-level", stockLevel);
        return endpoints;
    }
}
