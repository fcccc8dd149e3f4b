// The contract's environment: PORT, HOST (optional), one URL per database — MYSQL_URL serves
// forum and tpcc, MONGO_URL users and documents, POSTGRES_URL sports; at least one —,
// DB_POOL_SIZE, JWT_SECRET (required with MONGO_URL or POSTGRES_URL: users and sports sign
// tokens) and JWT_LIFETIME_SECONDS (default 3600). Everything is checked at start; one
// ConfigException lists every problem.

using System.Globalization;
using MySqlConnector;
using Npgsql;

namespace Fairbench.Aspnet;

public sealed class ConfigException(string message) : Exception(message);

/// <summary>Where MYSQL_URL points: mysql://user:pass@host:port/db.</summary>
public sealed record MySqlEndpoint(string Host, int Port, string User, string Password, string Database);

/// <summary>The token settings of the users and sports APIs.</summary>
public sealed record JwtSettings(string Secret, int LifetimeSeconds);

public sealed record AppConfig(
    string Host,
    int Port,
    int PoolSize,
    MySqlEndpoint? MySql = null,
    string? MongoUrl = null,
    string? PostgresUrl = null,
    JwtSettings? Jwt = null)
{
    /// <summary>How long any wait on a database may last before the request is a 503 (see DbTimeouts).</summary>
    public const int DbTimeoutSeconds = 2;

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
    /// One pool of exactly DB_POOL_SIZE connections. TLS off: every implementation talks to
    /// its database in plain text on loopback (mysql2 does not use TLS unless told to); without
    /// TLS, MySQL 8's caching_sha2_password needs the server's RSA key (AllowPublicKeyRetrieval).
    /// ConnectionTimeout bounds opening a connection and the wait for a pooled one;
    /// DefaultCommandTimeout every statement (a stalled server: 503, not a hang).
    /// </summary>
    public string MySqlConnectionString =>
        MySql is null ? throw new InvalidOperationException("MYSQL_URL is not set") :
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
            ConnectionTimeout = DbTimeoutSeconds,
            DefaultCommandTimeout = DbTimeoutSeconds,
            // On a command timeout, close the socket at once rather than send KILL QUERY over a
            // new connection, which waits another 2+ s on a stalled server.
            CancellationTimeout = -1,
            // Server-side prepared statements stay prepared on a pooled connection (as mysql2's cache does).
            ConnectionReset = false,
            IgnorePrepare = false,
        }.ConnectionString;

    /// <summary>Npgsql: pool of DB_POOL_SIZE, the same waits bounded (checkout+connect, command).</summary>
    public string PostgresConnectionString
    {
        get
        {
            if (PostgresUrl is null)
            {
                throw new InvalidOperationException("POSTGRES_URL is not set");
            }

            var uri = new Uri(PostgresUrl);
            var colon = uri.UserInfo.IndexOf(':');
            return new NpgsqlConnectionStringBuilder
            {
                Host = uri.Host.TrimStart('[').TrimEnd(']'),
                Port = uri.Port > 0 ? uri.Port : 5432,
                Username = Uri.UnescapeDataString(colon >= 0 ? uri.UserInfo[..colon] : uri.UserInfo),
                Password = colon >= 0 ? Uri.UnescapeDataString(uri.UserInfo[(colon + 1)..]) : null,
                Database = Uri.UnescapeDataString(uri.AbsolutePath.TrimStart('/')),
                Pooling = true,
                MinPoolSize = 0,
                MaxPoolSize = PoolSize,
                Timeout = DbTimeoutSeconds,
                CommandTimeout = DbTimeoutSeconds,
                SslMode = SslMode.Disable,
                // No DISCARD ALL on each return to the pool (node-postgres sends none either): the
                // app sets no session state, and the statement counts stay alike.
                NoResetOnClose = true,
                // The server cancels a statement that runs too long on a healthy connection too.
                Options = $"-c statement_timeout={DbTimeoutSeconds * 1000}",
            }.ConnectionString;
        }
    }

    /// <summary>Reads and checks every variable; one <see cref="ConfigException"/> lists all the problems.</summary>
    public static AppConfig Load(Func<string, string?> env)
    {
        var problems = new List<string>();

        var port = Read(problems, env, "PORT", ParsePort);
        var poolSize = Read(problems, env, "DB_POOL_SIZE", ParsePoolSize);
        var mysql = Optional(problems, env, "MYSQL_URL", ParseMySqlUrl);
        var mongo = Optional(problems, env, "MONGO_URL", ParseMongoUrl);
        var postgres = Optional(problems, env, "POSTGRES_URL", ParsePostgresUrl);
        var host = env("HOST")?.Trim();

        if (string.IsNullOrWhiteSpace(env("MYSQL_URL")) && string.IsNullOrWhiteSpace(env("MONGO_URL")) && string.IsNullOrWhiteSpace(env("POSTGRES_URL")))
        {
            problems.Add("set MYSQL_URL (forum, tpcc), MONGO_URL (users, documents) or POSTGRES_URL (sports): no API has a database");
        }

        JwtSettings? jwt = null;
        if (mongo is not null || postgres is not null)
        {
            var secret = Read(problems, env, "JWT_SECRET", raw => raw);
            var lifetime = string.IsNullOrWhiteSpace(env("JWT_LIFETIME_SECONDS"))
                ? 3600
                : Read(problems, env, "JWT_LIFETIME_SECONDS", ParseLifetime);
            if (secret is not null && lifetime is not null)
            {
                jwt = new JwtSettings(secret, lifetime.Value);
            }
        }

        if (problems.Count > 0 || port is null || poolSize is null)
        {
            throw new ConfigException(string.Join("; ", problems));
        }

        return new AppConfig(string.IsNullOrEmpty(host) ? "127.0.0.1" : host, port.Value, poolSize.Value, mysql, mongo, postgres, jwt);
    }

    private static T? Optional<T>(List<string> problems, Func<string, string?> env, string name, Func<string, T> parse) where T : class =>
        string.IsNullOrWhiteSpace(env(name)) ? null : Read(problems, env, name, parse);

    private static T? Read<T>(List<string> problems, Func<string, string?> env, string name, Func<string, T> parse)
    {
        var raw = env(name)?.Trim();
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

    private static bool IsDecimal(string text) => text.Length is > 0 and <= 10 && text.All(char.IsAsciiDigit);

    private static int? ParsePort(string raw) =>
        IsDecimal(raw) && long.Parse(raw, CultureInfo.InvariantCulture) <= 65535
            ? int.Parse(raw, CultureInfo.InvariantCulture)
            : throw new ConfigException($"PORT must be an integer 0..65535, got '{raw}'");

    private static int? ParsePoolSize(string raw) =>
        IsDecimal(raw) && long.Parse(raw, CultureInfo.InvariantCulture) is >= 1 and <= int.MaxValue
            ? int.Parse(raw, CultureInfo.InvariantCulture)
            : throw new ConfigException($"DB_POOL_SIZE must be a positive integer, got '{raw}'");

    private static int? ParseLifetime(string raw) =>
        IsDecimal(raw) && long.Parse(raw, CultureInfo.InvariantCulture) is >= 1 and <= int.MaxValue
            ? int.Parse(raw, CultureInfo.InvariantCulture)
            : throw new ConfigException($"JWT_LIFETIME_SECONDS must be a positive integer, got '{raw}'");

    // mysql://user:pass@host:port/db (user, password and database percent-decoded; port 3306 if absent).
    private static MySqlEndpoint ParseMySqlUrl(string raw)
    {
        var uri = ParseUrl(raw, "MYSQL_URL", ["mysql"], "mysql://user:pass@host:port/db");
        var host = uri.Host.TrimStart('[').TrimEnd(']');
        var database = Uri.UnescapeDataString(uri.AbsolutePath.TrimStart('/'));
        if (host.Length == 0 || database.Length == 0)
        {
            throw new ConfigException("MYSQL_URL must name a host and a database (mysql://user:pass@host:port/db)");
        }

        var colon = uri.UserInfo.IndexOf(':');
        var user = Uri.UnescapeDataString(colon >= 0 ? uri.UserInfo[..colon] : uri.UserInfo);
        var password = colon >= 0 ? Uri.UnescapeDataString(uri.UserInfo[(colon + 1)..]) : string.Empty;
        return new MySqlEndpoint(host, uri.Port > 0 ? uri.Port : 3306, user, password, database);
    }

    private static string ParseMongoUrl(string raw)
    {
        var uri = ParseUrl(raw, "MONGO_URL", ["mongodb"], "mongodb://host:port/db");
        return uri.AbsolutePath.TrimStart('/').Length == 0
            ? throw new ConfigException("MONGO_URL must name a database (mongodb://host:port/db)")
            : raw;
    }

    private static string ParsePostgresUrl(string raw)
    {
        var uri = ParseUrl(raw, "POSTGRES_URL", ["postgres", "postgresql"], "postgres://user:pass@host:port/db");
        return uri.AbsolutePath.TrimStart('/').Length == 0
            ? throw new ConfigException("POSTGRES_URL must name a database (postgres://user:pass@host:port/db)")
            : raw;
    }

    private static Uri ParseUrl(string raw, string name, string[] schemes, string example)
    {
        if (!Uri.TryCreate(raw, UriKind.Absolute, out var uri))
        {
            throw new ConfigException($"{name} is not a valid URL (expected {example})");
        }

        if (!schemes.Contains(uri.Scheme, StringComparer.OrdinalIgnoreCase))
        {
            throw new ConfigException($"{name} must use the {schemes[0]}: scheme, got {uri.Scheme}:");
        }

        return uri;
    }
}
