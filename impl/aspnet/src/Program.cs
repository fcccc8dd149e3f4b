// Entry point: read the environment, build the services (ForumApp), listen on
// http://$HOST:$PORT (HOST defaults to 127.0.0.1) and run until SIGTERM/SIGINT, when the
// host stops accepting, lets in-flight requests finish, disposes the MySQL data source
// and exits 0. A missing or invalid variable: one "aspnet: configuration error: ..." line
// on stderr and exit code 1.
//
// Production: the harness sets ASPNETCORE_ENVIRONMENT=Production (also the default when
// it is unset); no request is logged (see ForumApp).

using Fairbench.Aspnet;

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
ForumApp.ConfigureServices(builder, config);

var app = builder.Build();
ForumApp.ConfigurePipeline(app);

app.Logger.LogInformation(
    "aspnet: listening on {Url} (environment {Environment}, DB_POOL_SIZE={PoolSize})",
    config.ListenUrl,
    app.Environment.EnvironmentName,
    config.PoolSize);

await app.RunAsync();
return 0;
