// The exception handler's own cases (UseExceptionHandler + IExceptionHandler, the framework's
// way): a body over the route's limit (Kestrel's BadHttpRequestException) is 413, another
// unreadable body 400 malformed-body, a database that did not answer 503. Anything else is
// left to the framework's default: logged once (one JSON line on stderr, see Program.cs),
// answered 500 through the problem details service.

using Microsoft.AspNetCore.Diagnostics;

namespace Fairbench.Aspnet.Http;

public sealed class ClientAndDatabaseExceptionHandler(IProblemDetailsService problems) : IExceptionHandler
{
    public async ValueTask<bool> TryHandleAsync(HttpContext http, Exception exception, CancellationToken cancellationToken)
    {
        var (problem, detail) = exception switch
        {
            BadHttpRequestException { StatusCode: 413 } => (Problems.PayloadTooLarge, "the request body is larger than the limit"),
            BadHttpRequestException => (Problems.MalformedBody, "the request body could not be read"),
            _ when DatabaseUnavailable.Is(exception) => (Problems.Unavailable, $"the database did not answer in time ({exception.GetType().Name}); retry later"),
            _ => (null, null),
        };
        if (problem is null)
        {
            return false;
        }

        http.Response.StatusCode = problem.Status;
        return await problems.TryWriteAsync(new ProblemDetailsContext
        {
            HttpContext = http,
            Exception = exception,
            ProblemDetails = { Type = problem.Type, Title = problem.Title, Status = problem.Status, Detail = detail },
        });
    }
}
