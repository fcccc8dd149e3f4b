using System.Numerics;
using Xunit;

namespace Fairbench.Aspnet.Tests;

public class ParamsTests
{
    [Theory]
    [InlineData("1", 1)]
    [InlineData("42", 42)]
    [InlineData("2147483647", 2147483647)]
    public void Ids_in_range_parse(string text, int expected)
    {
        Assert.True(Params.TryParseId(text, out var id));
        Assert.Equal(expected, id);
    }

    [Theory]
    [InlineData("")]
    [InlineData("abc")]
    [InlineData("1.5")]
    [InlineData("0")]
    [InlineData("-1")]
    [InlineData("01")]
    [InlineData("+1")]
    [InlineData(" 1")]
    [InlineData("1 ")]
    [InlineData("2147483648")]
    [InlineData("99999999999999999999")]
    [InlineData("1e3")]
    [InlineData("0x10")]
    [InlineData("１")]
    [InlineData("1' OR '1'='1")]
    [InlineData("1;DROP TABLE comment")]
    public void Ids_breaking_the_rule_are_rejected(string text)
    {
        Assert.False(Params.TryParseId(text, out _));
    }

    [Fact]
    public void Null_is_rejected()
    {
        Assert.False(Params.TryParseId(null, out _));
        Assert.False(Params.TryParseLimit(null, out _));
    }

    [Theory]
    [InlineData("1", 1)]
    [InlineData("100", 100)]
    public void Limits_in_range_parse(string text, int expected)
    {
        Assert.True(Params.TryParseLimit(text, out var limit));
        Assert.Equal(expected, limit);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("101")]
    [InlineData("1000000")]
    [InlineData("2147483647")]
    [InlineData("-1")]
    [InlineData("1 OR 1=1")]
    public void Limits_breaking_the_rule_are_rejected(string text)
    {
        Assert.False(Params.TryParseLimit(text, out _));
    }

    [Fact]
    public void GraphQL_values_are_checked_as_their_decimal_text()
    {
        Assert.Equal("7", Params.TextOf("7"));
        Assert.Equal("7", Params.TextOf(7));
        Assert.Equal("-1", Params.TextOf(-1));
        Assert.Equal("2147483648", Params.TextOf(2147483648L));
        Assert.Equal("99999999999999999999", Params.TextOf(BigInteger.Parse("99999999999999999999")));
        Assert.Null(Params.TextOf(1.5));
        Assert.Null(Params.TextOf(null));
    }
}
