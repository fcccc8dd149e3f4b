// Bearer JWT authentication for the users and sports APIs with the framework's JwtBearer
// handler: HS256 only (ValidAlgorithms, so `none` and every other algorithm are refused),
// `exp` required, no clock skew, exp/nbf/iat JSON numbers (NumericDates), `sub` must be the
// API's kind of user id, and the user must still exist: OnTokenValidated loads the caller on
// every authenticated request, and the stored role (not the token's claim) is what
// authorization looks at. The challenge and forbidden events write the contract's 401/403
// problems. A database that does not answer while the caller is loaded is not a bad token:
// the exception propagates (503).

using System.Security.Claims;
using System.Text;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Fairbench.Aspnet.Auth;

/// <summary>The stored user a token belongs to.</summary>
public sealed record Caller(string Id, string Role, object User);

public static class TokenAuth
{
    private const string CallerKey = "fairbench.caller";

    public static SymmetricSecurityKey Key(JwtSettings jwt) => new(Encoding.UTF8.GetBytes(jwt.Secret));

    /// <summary>One JwtBearer scheme: <paramref name="subjectOk"/> checks `sub`, <paramref name="load"/> loads the caller (null: none).</summary>
    public static AuthenticationBuilder AddTokenScheme(
        this AuthenticationBuilder auth,
        string scheme,
        JwtSettings jwt,
        Func<string, bool> subjectOk,
        Func<IServiceProvider, string, Task<Caller?>> load) =>
        auth.AddJwtBearer(scheme, options =>
        {
            options.MapInboundClaims = false;
            options.TokenValidationParameters = new TokenValidationParameters
            {
                ValidateIssuer = false,
                ValidateAudience = false,
                ValidateLifetime = true,
                RequireExpirationTime = true,
                RequireSignedTokens = true,
                ClockSkew = TimeSpan.Zero,
                IssuerSigningKey = Key(jwt),
                ValidAlgorithms = [SecurityAlgorithms.HmacSha256],
                NameClaimType = "sub",
                RoleClaimType = "role",
            };
            options.Events = new JwtBearerEvents
            {
                OnTokenValidated = async context =>
                {
                    // JwtBearer's handler is JsonWebTokenHandler, whose tokens are JsonWebTokens.
                    var notANumber = context.SecurityToken is JsonWebToken token ? NumericDates.NotANumber(token) : "token";
                    if (notANumber is not null)
                    {
                        context.Fail($"the token's {notANumber} is not a NumericDate");
                        return;
                    }

                    var sub = context.Principal?.FindFirst("sub")?.Value;
                    if (sub is null || !subjectOk(sub))
                    {
                        context.Fail("the token's sub is not a user id");
                        return;
                    }

                    var caller = await load(context.HttpContext.RequestServices, sub);
                    if (caller is null)
                    {
                        context.Fail("the token's user does not exist");
                        return;
                    }

                    context.HttpContext.Items[CallerKey] = caller;
                    context.Principal = new ClaimsPrincipal(new ClaimsIdentity(
                        [new Claim("sub", caller.Id), new Claim("role", caller.Role)], scheme, "sub", "role"));
                },
                OnChallenge = async context =>
                {
                    context.HandleResponse();
                    var http = context.HttpContext;
                    http.Response.Headers.WWWAuthenticate = "Bearer";
                    var detail = context.AuthenticateFailure is null ? "a bearer token is required" : "the token is not valid";
                    await Problems.WriteAsync(http, Problems.Unauthorized, detail);
                },
                OnForbidden = context => Problems.WriteAsync(context.HttpContext, Problems.Forbidden, "only admins may do this"),
            };
        });

    /// <summary>A signed token: header {"alg":"HS256","typ":"JWT"}, claims sub, role, iat, exp.</summary>
    public static string Issue(JwtSettings jwt, string sub, string role)
    {
        var now = DateTime.UtcNow;
        var handler = new JsonWebTokenHandler { SetDefaultTimesOnTokenCreation = false };
        return handler.CreateToken(new SecurityTokenDescriptor
        {
            Claims = new Dictionary<string, object> { ["sub"] = sub, ["role"] = role },
            IssuedAt = now,
            Expires = now.AddSeconds(jwt.LifetimeSeconds),
            SigningCredentials = new SigningCredentials(Key(jwt), SecurityAlgorithms.HmacSha256),
        });
    }

    /// <summary>The caller OnTokenValidated loaded (only on endpoints that require a token).</summary>
    public static Caller Caller(this HttpContext http) => (Caller)http.Items[CallerKey]!;

    /// <summary>Writes 401 the way the challenge does (a login with wrong credentials).</summary>
    public static IResult Unauthorized(HttpContext http, string detail)
    {
        http.Response.Headers.WWWAuthenticate = "Bearer";
        return Problems.Result(Problems.Unauthorized, detail);
    }
}
