// Server-Timing: app;dur=<ms, 3 decimals> on every response, the header the Node
// implementations send (bench/k6/measure.js reads app;dur=). The outermost middleware:
// the clock starts when the pipeline receives the request and stops in OnStarting, the
// last moment before the headers are sent, so problems written by ProblemMiddleware or
// ExactPathMiddleware (404 of unknown paths, 405, 413, 500) are timed like any answer.
// A header set in OnStarting survives HttpResponse.Clear(), which drops headers but not
// the callbacks.

using System.Diagnostics;
using System.Globalization;

namespace Fairbench.Aspnet.Http;

public sealed class ServerTimingMiddleware
{
    private const string HeaderName = "Server-Timing";

    private readonly RequestDelegate _next;

    public ServerTimingMiddleware(RequestDelegate next)
    {
        _next = next;
    }

    public Task InvokeAsync(HttpContext context)
    {
        var started = Stopwatch.GetTimestamp();
        var response = context.Response;
        response.OnStarting(() =>
        {
            var milliseconds = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            response.Headers[HeaderName] = "app;dur=" + milliseconds.ToString("F3", CultureInfo.InvariantCulture);
            return Task.CompletedTask;
        });
        return _next(context);
    }
}
