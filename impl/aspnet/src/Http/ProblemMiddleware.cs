// The outermost middleware: every HTTP-level error becomes an application/problem+json
// body (spec/openapi.yaml "Errors").
// - an exception escaping the pipeline: Kestrel's BadHttpRequestException for a body over
//   MaxRequestBodySize -> 413 payload-too-large (any other bad request framing -> 400
//   malformed-body); the client going away -> nothing; anything else -> logged once,
//   500 internal (or the connection is aborted when the response has already started);
// - a response that ended with 404 or 405 and no body (routing's 405 endpoint for a known
//   path with another method; the pipeline's own 404 if nothing matched) -> that problem.

namespace Fairbench.Aspnet.Http;

public sealed class ProblemMiddleware
{
    private readonly RequestDelegate _next;
    private readonly ILogger<ProblemMiddleware> _logger;

    public ProblemMiddleware(RequestDelegate next, ILogger<ProblemMiddleware> logger)
    {
        _next = next;
        _logger = logger;
    }

    public async Task InvokeAsync(HttpContext context)
    {
        try
        {
            await _next(context);
        }
        catch (BadHttpRequestException ex) when (!context.Response.HasStarted)
        {
            if (ex.StatusCode == StatusCodes.Status413PayloadTooLarge)
            {
                await Problems.WriteAsync(context, Problems.PayloadTooLarge, "The request body is over 65536 bytes.");
            }
            else
            {
                await Problems.WriteAsync(context, Problems.MalformedBody, "The request body could not be read.");
            }

            return;
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            // The client disconnected: there is nobody to answer.
            return;
        }
        catch (Exception ex)
        {
            _logger.LogError(ex, "Unhandled exception for {Method} {Path}", context.Request.Method, context.Request.Path.ToUriComponent());
            if (context.Response.HasStarted)
            {
                // Too late for a problem document: drop the connection so the client sees a broken response.
                context.Abort();
                return;
            }

            await Problems.WriteAsync(context, Problems.Internal);
            return;
        }

        var response = context.Response;
        if (response.HasStarted || response.ContentLength is not null || !string.IsNullOrEmpty(response.ContentType))
        {
            return;
        }

        if (response.StatusCode == StatusCodes.Status405MethodNotAllowed)
        {
            var allow = response.Headers.Allow.ToString();
            var detail = allow.Length > 0
                ? $"{context.Request.Method} is not allowed on {context.Request.Path.ToUriComponent()}; allowed: {allow}."
                : $"{context.Request.Method} is not allowed on {context.Request.Path.ToUriComponent()}.";
            await Problems.WriteAsync(context, Problems.MethodNotAllowed, detail);
        }
        else if (response.StatusCode == StatusCodes.Status404NotFound)
        {
            await Problems.WriteAsync(context, Problems.NotFound, "No such resource.");
        }
    }
}
