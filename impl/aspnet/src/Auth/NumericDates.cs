// RFC 7519 §2 and §4.1.4-6: exp, nbf and iat are NumericDates, JSON numbers. Microsoft.IdentityModel
// reads a string of digits ("1764000000") as the number it spells, so a token with such a claim
// would pass its lifetime checks; the payload's own JSON decides here, and anything but a number
// in one of the three makes the token invalid (401), as in the other implementations.

using System.Text.Json;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Fairbench.Aspnet.Auth;

public static class NumericDates
{
    private static readonly string[] DateClaims = ["exp", "nbf", "iat"];

    /// <summary>The first of exp, nbf and iat that is present and not a JSON number, or null.</summary>
    public static string? NotANumber(JsonWebToken token)
    {
        using var payload = JsonDocument.Parse(Base64UrlEncoder.DecodeBytes(token.EncodedPayload));
        return DateClaims.FirstOrDefault(name =>
            payload.RootElement.TryGetProperty(name, out var value) && value.ValueKind != JsonValueKind.Number);
    }
}
