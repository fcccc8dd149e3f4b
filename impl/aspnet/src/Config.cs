// Environment parsing and validation (the harness/implementation contract:
// PORT, MYSQL_URL, DB_POOL_SIZE, ASPNETCORE_ENVIRONMENT=Production; HOST is optional,
// JWT_SECRET is unused by the forum API). Anything missing or invalid is a startup
// error whose message lists every problem at once.

using System.Globalization;
using MySqlConnector;

namespace Fairbench.Aspnet;

public sealed class ConfigException : Exception
{
    public ConfigException(string message) : base(message)
    {
    }
}

/// <summary>Where MYSQL_URL points: mysql://user:pass@host:port/db.</summary>
public sealed record MySqlEndpoint(string Host, int Port, string User, string Password, string Database);

public sealed record AppConfig(string Host, int Port, MySqlEndpoint MySql, int PoolSize)
{
    /// <summary>The URL Kestrel listens on (an IPv6 literal gets its brackets).</summary>
    public string ListenUrl
    {
        get
        {
            var host = Host.Contains(':') && !Host.StartsWith('[') ? $"[{Host}]" : Host;
            return $"http://{host}:{Port.ToString(CultureInfo.InvariantCulture)}";
        }
    }

    /// <summary>
    /// The MySqlConnector connection string: one pool of exactly DB_POOL_SIZE connections
    /// (MaximumPoolSize; MinimumPoolSize 0, MySqlConnector's default). TLS is off (SslMode=None)
    /// because every implementation talks to the database in plain text on loopback (mysql2,
    /// the Express implementation's driver, does not use TLS unless told to); without TLS,
    /// MySQL 8's caching_sha2_password needs the server's RSA key, hence AllowPublicKeyRetrieval
    /// (mysql2 does the same exchange by default).
    /// </summary>
    public string MySqlConnectionString =>
        new MySqlConnectionStringBuilder
        {
            Server = MySql.Host,
            Port = (uint)MySql.Port,
            UserID = MySql.User,
            Password = MySql.Password,
            Database = MySql.Database,
            Pooling = true,
            MinimumPoolSize = 0,
            MaximumPoolSize = (uint)PoolSize,
            SslMode = MySqlSslMode.None,
            AllowPublicKeyRetrieval = true,
        }.ConnectionString;

    /// <summary>Reads and checks every variable; one <see cref="ConfigException"/> lists all the problems.</summary>
    public static AppConfig Load(Func<string, string?> getEnvironmentVariable)
    {
        var problems = new List<string>();

        var port = Read(problems, getEnvironmentVariable, "PORT", ParsePort);
        var mysql = Read(problems, getEnvironmentVariable, "MYSQL_URL", ParseMySqlUrl);
        var poolSize = Read(problems, getEnvironmentVariable, "DB_POOL_SIZE", ParsePoolSize);
        var host = getEnvironmentVariable("HOST")?.Trim();

        if (problems.Count > 0 || port is null || mysql is null || poolSize is null)
        {
            throw new ConfigException(string.Join("; ", problems));
        }

        return new AppConfig(string.IsNullOrEmpty(host) ? "127.0.0.1" : host, port.Value, mysql, poolSize.Value);
    }

    private static T? Read<T>(List<string> problems, Func<string, string?> getEnvironmentVariable, string name, Func<string, T> parse)
    {
        var raw = getEnvironmentVariable(name)?.Trim();
        if (string.IsNullOrEmpty(raw))
        {
            problems.Add($"{name} is required but not set");
            return default;
        }

        try
        {
            return parse(raw);
        }
        catch (ConfigException ex)
        {
            problems.Add(ex.Message);
            return default;
        }
    }

    private static bool IsDecimal(string text)
    {
        if (text.Length == 0 || text.Length > 10)
        {
            return false;
        }

        foreach (var c in text)
        {
            if (c < '0' || c > '9')
            {
                return false;
            }
        }

        return true;
    }

    private static int? ParsePort(string raw)
    {
        if (!IsDecimal(raw) || long.Parse(raw, CultureInfo.InvariantCulture) > 65535)
        {
            throw new ConfigException($"PORT must be an integer 0..65535, got '{raw}'");
        }

        return int.Parse(raw, CultureInfo.InvariantCulture);
    }

    private static int? ParsePoolSize(string raw)
    {
        if (!IsDecimal(raw) || long.Parse(raw, CultureInfo.InvariantCulture) is < 1 or > int.MaxValue)
        {
            throw new ConfigException($"DB_POOL_SIZE must be a positive integer, got '{raw}'");
        }

        return int.Parse(raw, CultureInfo.InvariantCulture);
    }

    // mysql://user:pass@host:port/db (user, password and database percent-decoded; port 3306 if absent).
    private static MySqlEndpoint ParseMySqlUrl(string raw)
    {
        if (!Uri.TryCreate(raw, UriKind.Absolute, out var uri))
        {
            throw new ConfigException("MYSQL_URL is not a valid URL (expected mysql://user:pass@host:port/db)");
        }

        if (!string.Equals(uri.Scheme, "mysql", StringComparison.OrdinalIgnoreCase))
        {
            throw new ConfigException($"MYSQL_URL must use the mysql: scheme, got {uri.Scheme}:");
        }

        var host = uri.Host.TrimStart('[').TrimEnd(']');
        var database = Uri.UnescapeDataString(uri.AbsolutePath.TrimStart('/'));
        if (host.Length == 0 || database.Length == 0)
        {
            throw new ConfigException("MYSQL_URL must name a host and a database (mysql://user:pass@host:port/db)");
        }

        var userInfo = uri.UserInfo;
        var colon = userInfo.IndexOf(':');
        var user = Uri.UnescapeDataString(colon >= 0 ? userInfo[..colon] : userInfo);
        var password = colon >= 0 ? Uri.UnescapeDataString(userInfo[(colon + 1)..]) : string.Empty;

        return new MySqlEndpoint(host, uri.Port > 0 ? uri.Port : 3306, user, password, database);
    }
}
