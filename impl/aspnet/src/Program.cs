// Entry point: read the environment, build the services of the APIs whose database is set
// (App), listen on http://$HOST:$PORT and run until SIGTERM/SIGINT, when the host stops
// accepting, lets in-flight requests finish (10 s at most), disposes the pools and exits 0.
// A missing or invalid variable: one "aspnet: configuration error: ..." line, exit 1.

using Fairbench.Aspnet;
using Microsoft.Extensions.Logging.Console;

AppConfig config;
try
{
    config = AppConfig.Load(Environment.GetEnvironmentVariable);
}
catch (ConfigException ex)
{
    Console.Error.WriteLine($"aspnet: configuration error: {ex.Message}");
    return 1;
}

var builder = WebApplication.CreateBuilder(new WebApplicationOptions
{
    Args = args,
    // appsettings.json sits next to the published dll; the harness starts the app from impl/aspnet.
    ContentRootPath = AppContext.BaseDirectory,
});
builder.WebHost.UseUrls(config.ListenUrl);
builder.Services.Configure<HostOptions>(host => host.ShutdownTimeout = TimeSpan.FromSeconds(10));

// One JSON line per log entry; errors (the unhandled exceptions the 500s come from) on stderr.
builder.Logging.ClearProviders();
builder.Logging.AddJsonConsole(json => json.JsonWriterOptions = new() { Indented = false });
builder.Services.Configure<ConsoleLoggerOptions>(console => console.LogToStandardErrorThreshold = LogLevel.Error);

App.ConfigureServices(builder, config);
var app = builder.Build();
App.ConfigurePipeline(app);

app.Logger.LogInformation("aspnet: listening on {Url} (environment {Environment}, DB_POOL_SIZE={PoolSize})", config.ListenUrl, app.Environment.EnvironmentName, config.PoolSize);
await app.RunAsync();
return 0;
