using Xunit;

namespace Fairbench.Aspnet.Tests;

public class ConfigTests
{
    private static Func<string, string?> Env(params (string Name, string Value)[] values)
    {
        var map = values.ToDictionary(v => v.Name, v => v.Value);
        return name => map.TryGetValue(name, out var value) ? value : null;
    }

    [Fact]
    public void Reads_the_contract_variables()
    {
        var config = AppConfig.Load(Env(
            ("PORT", "8080"),
            ("MYSQL_URL", "mysql://root:p%40ss@127.0.0.1:13306/forum"),
            ("DB_POOL_SIZE", "100")));

        Assert.Equal("127.0.0.1", config.Host);
        Assert.Equal(8080, config.Port);
        Assert.Equal(100, config.PoolSize);
        Assert.Equal(new MySqlEndpoint("127.0.0.1", 13306, "root", "p@ss", "forum"), config.MySql);
        Assert.Equal("http://127.0.0.1:8080", config.ListenUrl);

        var connectionString = config.MySqlConnectionString;
        Assert.Contains("Maximum Pool Size=100", connectionString, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Database=forum", connectionString, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Host_and_default_port_of_the_database()
    {
        var config = AppConfig.Load(Env(
            ("PORT", "0"),
            ("HOST", "::1"),
            ("MYSQL_URL", "mysql://user@db.example/forum"),
            ("DB_POOL_SIZE", "1")));

        Assert.Equal("http://[::1]:0", config.ListenUrl);
        Assert.Equal(3306, config.MySql!.Port);
        Assert.Equal("user", config.MySql.User);
        Assert.Equal(string.Empty, config.MySql.Password);
    }

    [Fact]
    public void Every_problem_is_reported_at_once()
    {
        var ex = Assert.Throws<ConfigException>(() => AppConfig.Load(Env(("PORT", "70000"), ("MYSQL_URL", "postgres://x@y/z"))));
        Assert.Contains("PORT", ex.Message);
        Assert.Contains("mysql: scheme", ex.Message);
        Assert.Contains("DB_POOL_SIZE is required", ex.Message);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("ten")]
    public void Pool_size_must_be_positive(string value)
    {
        Assert.Throws<ConfigException>(() => AppConfig.Load(Env(
            ("PORT", "8080"),
            ("MYSQL_URL", "mysql://root:pw@127.0.0.1:3306/forum"),
            ("DB_POOL_SIZE", value))));
    }
}
