// The one MongoDB client of the users and documents APIs: a pool of exactly DB_POOL_SIZE
// connections, and every wait bounded like the other implementations' (2 s): server
// selection, connect, socket reads and writes, the pool checkout. The monitor checks the
// server every second (default 10 s), so a restarted server is found again quickly.
// No collection or index is created: the harness owns them.

using MongoDB.Driver;

namespace Fairbench.Aspnet.Data;

public static class MongoSetup
{
    public static void AddServices(IServiceCollection services, AppConfig config)
    {
        var url = MongoUrl.Create(config.MongoUrl);
        var settings = MongoClientSettings.FromUrl(url);
        var timeout = TimeSpan.FromSeconds(AppConfig.DbTimeoutSeconds);
        settings.MaxConnectionPoolSize = config.PoolSize;
        settings.MinConnectionPoolSize = 0;
        settings.ServerSelectionTimeout = timeout;
        settings.ConnectTimeout = timeout;
        settings.SocketTimeout = timeout;
        settings.WaitQueueTimeout = timeout;
        settings.HeartbeatInterval = TimeSpan.FromSeconds(1);
        // No automatic retry of a read or write that failed on the network: a retry starts the
        // waits above again, so a stalled server would hold a request for three of them
        // (6+ s) instead of two. The client sees a 503 and may retry itself.
        settings.RetryReads = false;
        settings.RetryWrites = false;
        services.AddSingleton<IMongoClient>(_ => new MongoClient(settings));
        services.AddSingleton(provider => provider.GetRequiredService<IMongoClient>().GetDatabase(url.DatabaseName));
    }
}
