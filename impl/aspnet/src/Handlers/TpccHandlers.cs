// Handlers of the tpcc API: read the body (JsonBody: 415, 413, malformed), check it against
// the spec's input schema (TPC-C's ranges, no unknown member, no type conversion: "1" is
// not a warehouse number, 2.5 not a quantity, 5.0 is 5), run the transaction, answer the terminal's
// output; the data layer's refusals become problems.

using System.Text.Json;
using System.Text.RegularExpressions;
using Fairbench.Aspnet.Data;
using Fairbench.Aspnet.Http;

namespace Fairbench.Aspnet.Handlers;

public sealed partial class TpccHandlers(ITpccData data)
{
    /// <summary>The largest valid body, a new order of 15 lines, is under 1 KiB.</summary>
    public const int BodyLimit = 16 * 1024;

    [GeneratedRegex(@"^[A-Z]{1,16}\z")]
    private static partial Regex LastNamePattern();

    public Task<IResult> NewOrderAsync(HttpContext http) => RunAsync(http, ["w_id", "d_id", "c_id", "items"], body =>
    {
        var items = new List<OrderLineInput>();
        var invalid = Warehouse(body, "w_id") ?? District(body, "d_id") ?? Int(body, "c_id", 1, 3000, out _);
        if (invalid is null)
        {
            if (!body.TryGetProperty("items", out var lines) || lines.ValueKind != JsonValueKind.Array || lines.GetArrayLength() is < 5 or > 15)
            {
                invalid = "items must be an array of 5 to 15 order lines";
            }
            else
            {
                foreach (var line in lines.EnumerateArray())
                {
                    int item = 0, supply = 0, quantity = 0;
                    invalid = Members(line, ["ol_i_id", "ol_supply_w_id", "ol_quantity"])
                        ?? Int(line, "ol_i_id", 1, int.MaxValue, out item) ?? Int(line, "ol_supply_w_id", 1, int.MaxValue, out supply)
                        ?? Int(line, "ol_quantity", 1, 10, out quantity);
                    if (invalid is not null)
                    {
                        break;
                    }

                    items.Add(new OrderLineInput(item, supply, quantity));
                }
            }
        }

        return invalid is not null ? Invalid(invalid)
            : Ok(() => data.NewOrderAsync(new NewOrderInput(Get(body, "w_id"), Get(body, "d_id"), Get(body, "c_id"), items)));
    });

    public Task<IResult> PaymentAsync(HttpContext http) => RunAsync(http, ["w_id", "d_id", "c_w_id", "c_d_id", "c_id", "c_last", "h_amount"], body =>
    {
        int? id = null;
        string? last = null;
        var amount = 0m;
        var invalid = Warehouse(body, "w_id") ?? District(body, "d_id") ?? Warehouse(body, "c_w_id") ?? District(body, "c_d_id")
            ?? Customer(body, out id, out last) ?? Amount(body, out amount);
        return invalid is not null ? Invalid(invalid)
            : Ok(() => data.PaymentAsync(new PaymentInput(Get(body, "w_id"), Get(body, "d_id"), Get(body, "c_w_id"), Get(body, "c_d_id"), id, last, amount)));
    });

    public Task<IResult> OrderStatusAsync(HttpContext http) => RunAsync(http, ["w_id", "d_id", "c_id", "c_last"], body =>
    {
        int? id = null;
        string? last = null;
        var invalid = Warehouse(body, "w_id") ?? District(body, "d_id") ?? Customer(body, out id, out last);
        return invalid is not null ? Invalid(invalid)
            : Ok(() => data.OrderStatusAsync(new OrderStatusInput(Get(body, "w_id"), Get(body, "d_id"), id, last)));
    });

    public Task<IResult> DeliveryAsync(HttpContext http) => RunAsync(http, ["w_id", "o_carrier_id"], body =>
    {
        var carrier = 0;
        var invalid = Warehouse(body, "w_id") ?? Int(body, "o_carrier_id", 1, 10, out carrier);
        return invalid is not null ? Invalid(invalid) : Ok(() => data.DeliveryAsync(new DeliveryInput(Get(body, "w_id"), carrier)));
    });

    public Task<IResult> StockLevelAsync(HttpContext http) => RunAsync(http, ["w_id", "d_id", "threshold"], body =>
    {
        var threshold = 0;
        var invalid = Warehouse(body, "w_id") ?? District(body, "d_id") ?? Int(body, "threshold", 10, 20, out threshold);
        return invalid is not null ? Invalid(invalid)
            : Ok(() => data.StockLevelAsync(new StockLevelInput(Get(body, "w_id"), Get(body, "d_id"), threshold)));
    });

    /// <summary>Reads the body, checks its members, runs the checked transaction and maps its refusals.</summary>
    private static async Task<IResult> RunAsync(HttpContext http, string[] members, Func<JsonElement, Func<Task<IResult>>> check)
    {
        var (bytes, problem) = await JsonBody.ReadBytesAsync(http, BodyLimit);
        if (problem is not null)
        {
            return problem;
        }

        if (bytes!.Length == 0)
        {
            return JsonBody.EmptyBody();
        }

        if (!JsonBody.IsUtf8(bytes))
        {
            return JsonBody.NotUtf8();
        }

        JsonElement body;
        try
        {
            using var document = JsonDocument.Parse(bytes, new JsonDocumentOptions { MaxDepth = JsonBody.MaxDepth });
            body = document.RootElement.Clone();
        }
        catch (JsonException)
        {
            return Problems.Result(Problems.MalformedBody, "the request body is not valid JSON");
        }

        if (Members(body, members) is { } unknown)
        {
            return JsonBody.Invalid(unknown);
        }

        try
        {
            return await check(body)();
        }
        catch (TpccItemNotFoundException ex)
        {
            return Problems.Result(Problems.ItemNotFound, ex.Message);
        }
        catch (TpccNotFoundException ex)
        {
            return Problems.Result(Problems.NotFound, ex.Message);
        }
        catch (TpccBusyException ex)
        {
            http.Response.Headers.RetryAfter = "1";
            return Problems.Result(Problems.Unavailable, ex.Message);
        }
    }

    private static Func<Task<IResult>> Invalid(string detail) => () => Task.FromResult(JsonBody.Invalid(detail));

    private static Func<Task<IResult>> Ok<T>(Func<Task<T>> run) => async () => TypedResults.Ok(await run());

    /// <summary>An object with no member beyond <paramref name="allowed"/>.</summary>
    private static string? Members(JsonElement value, string[] allowed)
    {
        if (value.ValueKind != JsonValueKind.Object)
        {
            return "a JSON object is expected";
        }

        foreach (var member in value.EnumerateObject())
        {
            if (!allowed.Contains(member.Name))
            {
                return $"\"{member.Name}\" is not allowed";
            }
        }

        return null;
    }

    private static string? Warehouse(JsonElement body, string name) => Int(body, name, 1, int.MaxValue, out _);

    private static string? District(JsonElement body, string name) => Int(body, name, 1, 10, out _);

    // A checked integer (Int): 5.0 reads as 5.
    private static int Get(JsonElement body, string name) => (int)body.GetProperty(name).GetDecimal();

    /// <summary>A required JSON integer from min to max.</summary>
    private static string? Int(JsonElement body, string name, int min, int max, out int value)
    {
        value = 0;
        if (!body.TryGetProperty(name, out var element))
        {
            return $"\"{name}\" is required";
        }

        // JSON Schema's integer is a value, not a spelling: 5.0 is the integer 5 (2.5 and 1e309 are not integers here).
        return element.ValueKind == JsonValueKind.Number && element.TryGetDecimal(out var number) && number == decimal.Truncate(number)
            && number >= min && number <= max && (value = (int)number) == number
            ? null
            : $"\"{name}\" must be an integer from {min} to {max}";
    }

    /// <summary>Exactly one of c_id (1..3000) and c_last (upper-case letters, 1..16).</summary>
    private static string? Customer(JsonElement body, out int? id, out string? last)
    {
        id = null;
        last = null;
        var hasId = body.TryGetProperty("c_id", out _);
        var hasLast = body.TryGetProperty("c_last", out var lastElement);
        if (hasId == hasLast)
        {
            return "give exactly one of c_id and c_last";
        }

        if (hasId)
        {
            var invalid = Int(body, "c_id", 1, 3000, out var customer);
            id = customer;
            return invalid;
        }

        if (lastElement.ValueKind != JsonValueKind.String || !LastNamePattern().IsMatch(lastElement.GetString()!))
        {
            return "\"c_last\" must be 1 to 16 upper-case letters";
        }

        last = lastElement.GetString();
        return null;
    }

    /// <summary>h_amount: a number from 1 to 5000, rounded to the cent (half away from zero).</summary>
    private static string? Amount(JsonElement body, out decimal amount)
    {
        amount = 0;
        if (!body.TryGetProperty("h_amount", out var element) || element.ValueKind != JsonValueKind.Number || !element.TryGetDecimal(out var value) || value < 1 || value > 5000)
        {
            return "\"h_amount\" must be a number from 1 to 5000";
        }

        amount = Math.Round(value, 2, MidpointRounding.AwayFromZero);
        return null;
    }
}
