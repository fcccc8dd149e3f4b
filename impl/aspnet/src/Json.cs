// System.Text.Json source generation (the documented fast path: no reflection at run time)
// for every body the app reads or writes; App registers it first in the HTTP JSON options.
// Unknown members of a request body are an error (invalid-body), as the spec's
// additionalProperties: false requires; nulls are written, never omitted.

using System.Text.Json.Serialization;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Handlers;

namespace Fairbench.Aspnet;

[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    RespectRequiredConstructorParameters = true,
    RespectNullableAnnotations = true,
    NumberHandling = JsonNumberHandling.Strict,
    MaxDepth = Http.JsonBody.MaxDepth)]
[JsonSerializable(typeof(HealthStatus))]
[JsonSerializable(typeof(Comment))]
[JsonSerializable(typeof(IReadOnlyList<Comment>))]
[JsonSerializable(typeof(CommentWithUser))]
[JsonSerializable(typeof(IReadOnlyList<CommentWithUser>))]
[JsonSerializable(typeof(User))]
[JsonSerializable(typeof(List<User>))]
[JsonSerializable(typeof(IReadOnlyList<User>))]
[JsonSerializable(typeof(UserRegistration))]
[JsonSerializable(typeof(UserUpdate))]
[JsonSerializable(typeof(LoginRequest))]
[JsonSerializable(typeof(LoginResponse))]
[JsonSerializable(typeof(StoredDocument))]
[JsonSerializable(typeof(SportsUser))]
[JsonSerializable(typeof(SportsFacilityWithFields))]
[JsonSerializable(typeof(SportsField))]
[JsonSerializable(typeof(SportsReservation))]
[JsonSerializable(typeof(SportsRating))]
[JsonSerializable(typeof(SportsPage<SportsFacility>))]
[JsonSerializable(typeof(SportsPage<SportsField>))]
[JsonSerializable(typeof(SportsPage<SportsReservationListItem>))]
[JsonSerializable(typeof(SportsRegistration))]
[JsonSerializable(typeof(SportsFieldInput))]
[JsonSerializable(typeof(SportsReservationInput))]
[JsonSerializable(typeof(SportsStatusInput))]
[JsonSerializable(typeof(SportsRatingInput))]
public sealed partial class AppJsonContext : JsonSerializerContext;

/// <summary>The tpcc bodies: their members are TPC-C's column names, written as declared (no naming policy).</summary>
[JsonSourceGenerationOptions(MaxDepth = Http.JsonBody.MaxDepth)]
[JsonSerializable(typeof(NewOrderResult))]
[JsonSerializable(typeof(PaymentResult))]
[JsonSerializable(typeof(OrderStatusResult))]
[JsonSerializable(typeof(DeliveryResult))]
[JsonSerializable(typeof(StockLevelResult))]
public sealed partial class TpccJsonContext : JsonSerializerContext;
