// Data access for the tpcc API: TPC-C's five transactions (clauses 2.4-2.8), each one
// database transaction on one pooled connection, every statement prepared (MySqlConnector
// keeps it prepared on the pooled connection, as mysql2's execute() does).
//
// Isolation: REPEATABLE READ (set explicitly on each transaction), and every row that is
// written is first read with FOR UPDATE, so two new orders on one district serialise on the
// district row and get consecutive order ids. Order-Status and Stock-Level are READ ONLY
// transactions. A deadlock or lock-wait timeout rolls back and runs the whole transaction
// again, at most Attempts times in all; then TpccBusyException (a 503). Money is exact:
// DECIMAL columns are read as decimal, amounts rounded half away from zero to the cent.
// Every wait is bounded by the pool's 2 s connect and command timeouts (Config), each
// attempt by a 2 s deadline from the checkout on.

using System.Data;
using System.Globalization;
using MySqlConnector;

namespace Fairbench.Aspnet.Data;

/// <summary>A row the request names does not exist (404 not-found).</summary>
public sealed class TpccNotFoundException(string message) : Exception(message);

/// <summary>TPC-C's rolled-back new order: an unused item id (404 item-not-found).</summary>
public sealed class TpccItemNotFoundException() : Exception("Item number is not valid");

/// <summary>Deadlocks or lock waits on every attempt (503 unavailable, Retry-After).</summary>
public sealed class TpccBusyException(string message) : Exception(message);

public sealed record OrderLineInput(int ol_i_id, int ol_supply_w_id, int ol_quantity);

public sealed record NewOrderInput(int w_id, int d_id, int c_id, IReadOnlyList<OrderLineInput> items);

public sealed record PaymentInput(int w_id, int d_id, int c_w_id, int c_d_id, int? c_id, string? c_last, decimal h_amount);

public sealed record OrderStatusInput(int w_id, int d_id, int? c_id, string? c_last);

public sealed record DeliveryInput(int w_id, int o_carrier_id);

public sealed record StockLevelInput(int w_id, int d_id, int threshold);

public sealed record NewOrderLine(int ol_supply_w_id, int ol_i_id, string i_name, int ol_quantity, int s_quantity, string brand_generic, decimal i_price, decimal ol_amount);

public sealed record NewOrderResult(
    int w_id, int d_id, int c_id, string c_last, string c_credit, decimal c_discount, decimal w_tax, decimal d_tax,
    int o_id, int o_ol_cnt, string o_entry_d, decimal total_amount, IReadOnlyList<NewOrderLine> lines);

public sealed record TpccAddress(string street_1, string street_2, string city, string state, string zip);

public sealed record PaymentCustomer(
    int c_id, string c_first, string c_middle, string c_last, TpccAddress address, string c_phone, string c_since,
    string c_credit, decimal c_credit_lim, decimal c_discount, decimal c_balance, string? c_data);

public sealed record PaymentResult(
    int w_id, int d_id, int c_w_id, int c_d_id, decimal h_amount, string h_date, TpccAddress warehouse, TpccAddress district, PaymentCustomer customer);

public sealed record StatusCustomer(int c_id, string c_first, string c_middle, string c_last, decimal c_balance);

public sealed record StatusLine(int ol_supply_w_id, int ol_i_id, int ol_quantity, decimal ol_amount, string? ol_delivery_d);

public sealed record StatusOrder(int o_id, string o_entry_d, int? o_carrier_id, IReadOnlyList<StatusLine> lines);

public sealed record OrderStatusResult(int w_id, int d_id, StatusCustomer customer, StatusOrder order);

public sealed record DeliveredDistrict(int d_id, int? o_id);

public sealed record DeliveryResult(int w_id, int o_carrier_id, string ol_delivery_d, IReadOnlyList<DeliveredDistrict> districts);

public sealed record StockLevelResult(int w_id, int d_id, int threshold, long low_stock);

public interface ITpccData
{
    Task<NewOrderResult> NewOrderAsync(NewOrderInput input);

    Task<PaymentResult> PaymentAsync(PaymentInput input);

    Task<OrderStatusResult> OrderStatusAsync(OrderStatusInput input);

    Task<DeliveryResult> DeliveryAsync(DeliveryInput input);

    Task<StockLevelResult> StockLevelAsync(StockLevelInput input);
}

public sealed class TpccData(MySqlDataSource dataSource) : ITpccData
{
    private const int Attempts = 3;
    private const int Districts = 10;

    private const string CustomerColumns = "c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_data";

    private static readonly string[] StockForUpdate = Enumerable.Range(0, Districts + 1)
        .Select(d => $"SELECT s_quantity, s_data, s_dist_{d:00} FROM stock WHERE s_i_id = @i AND s_w_id = @w FOR UPDATE").ToArray();

    /// <summary>'YYYY-MM-DD HH:MM:SS' in UTC: the DATETIME the transaction writes and answers.</summary>
    public static string Timestamp(DateTime utc) => utc.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);

    public Task<NewOrderResult> NewOrderAsync(NewOrderInput input) => TransactionAsync(async c =>
    {
        var (w, d) = (input.w_id, input.d_id);
        var now = DateTime.UtcNow;
        var wTax = await ScalarAsync<decimal?>(c, "SELECT w_tax FROM warehouse WHERE w_id = @w", ("@w", w))
            ?? throw new TpccNotFoundException($"warehouse {w} does not exist");
        var district = await RowAsync(c, "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = @w AND d_id = @d FOR UPDATE",
            r => (Tax: r.GetDecimal(0), Next: r.GetInt32(1)), ("@w", w), ("@d", d))
            ?? throw new TpccNotFoundException($"district {d} of warehouse {w} does not exist");
        await ExecuteAsync(c, "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = @w AND d_id = @d", ("@w", w), ("@d", d));
        var customer = await RowAsync(c, "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c",
            r => (Discount: r.GetDecimal(0), Last: r.GetString(1), Credit: r.GetString(2)), ("@w", w), ("@d", d), ("@c", input.c_id))
            ?? throw new TpccNotFoundException($"customer {input.c_id} of warehouse {w} district {d} does not exist");
        var orderId = district.Next;
        var allLocal = input.items.All(line => line.ol_supply_w_id == w) ? 1 : 0;
        await ExecuteAsync(c, "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (@o, @d, @w, @c, @now, NULL, @n, @local)",
            ("@o", orderId), ("@d", d), ("@w", w), ("@c", input.c_id), ("@now", now), ("@n", input.items.Count), ("@local", allLocal));
        await ExecuteAsync(c, "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (@o, @d, @w)", ("@o", orderId), ("@d", d), ("@w", w));

        var lines = new List<NewOrderLine>(input.items.Count);
        var sum = 0m;
        for (var index = 0; index < input.items.Count; index++)
        {
            var line = input.items[index];
            var item = await RowAsync(c, "SELECT i_price, i_name, i_data FROM item WHERE i_id = @i",
                r => (Price: r.GetDecimal(0), Name: r.GetString(1), Data: r.GetString(2)), ("@i", line.ol_i_id))
                ?? throw new TpccItemNotFoundException();
            var stock = await RowAsync(c, StockForUpdate[d],
                r => (Quantity: r.GetInt32(0), Data: r.GetString(1), Dist: r.GetString(2)), ("@i", line.ol_i_id), ("@w", line.ol_supply_w_id))
                ?? throw new TpccNotFoundException($"supplying warehouse {line.ol_supply_w_id} does not exist");
            var quantity = stock.Quantity >= line.ol_quantity + 10 ? stock.Quantity - line.ol_quantity : stock.Quantity - line.ol_quantity + 91;
            await ExecuteAsync(c, "UPDATE stock SET s_quantity = @q, s_ytd = s_ytd + @n, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + @remote WHERE s_i_id = @i AND s_w_id = @w",
                ("@q", quantity), ("@n", line.ol_quantity), ("@remote", line.ol_supply_w_id == w ? 0 : 1), ("@i", line.ol_i_id), ("@w", line.ol_supply_w_id));
            var amount = line.ol_quantity * item.Price;
            sum += amount;
            await ExecuteAsync(c, "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (@o, @d, @w, @number, @i, @supply, NULL, @n, @amount, @dist)",
                ("@o", orderId), ("@d", d), ("@w", w), ("@number", index + 1), ("@i", line.ol_i_id), ("@supply", line.ol_supply_w_id), ("@n", line.ol_quantity), ("@amount", amount), ("@dist", stock.Dist));
            var brand = item.Data.Contains("ORIGINAL", StringComparison.Ordinal) && stock.Data.Contains("ORIGINAL", StringComparison.Ordinal) ? "B" : "G";
            lines.Add(new NewOrderLine(line.ol_supply_w_id, line.ol_i_id, item.Name, line.ol_quantity, quantity, brand, item.Price, amount));
        }

        var total = Math.Round(sum * (1 - customer.Discount) * (1 + wTax + district.Tax), 2, MidpointRounding.AwayFromZero);
        return new NewOrderResult(w, d, input.c_id, customer.Last, customer.Credit, customer.Discount, wTax, district.Tax,
            orderId, input.items.Count, Timestamp(now), total, lines);
    });

    public Task<PaymentResult> PaymentAsync(PaymentInput input) => TransactionAsync(async c =>
    {
        var (w, d, cw, cd) = (input.w_id, input.d_id, input.c_w_id, input.c_d_id);
        var now = DateTime.UtcNow;
        var amount = input.h_amount;
        if (await ExecuteAsync(c, "UPDATE warehouse SET w_ytd = w_ytd + @a WHERE w_id = @w", ("@a", amount), ("@w", w)) == 0)
        {
            throw new TpccNotFoundException($"warehouse {w} does not exist");
        }

        var warehouse = (await RowAsync(c, "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = @w",
            r => (Name: r.GetString(0), Address: Address(r, 1)), ("@w", w)))!.Value;
        await ExecuteAsync(c, "UPDATE district SET d_ytd = d_ytd + @a WHERE d_w_id = @w AND d_id = @d", ("@a", amount), ("@w", w), ("@d", d));
        var district = await RowAsync(c, "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = @w AND d_id = @d",
            r => (Name: r.GetString(0), Address: Address(r, 1)), ("@w", w), ("@d", d))
            ?? throw new TpccNotFoundException($"district {d} of warehouse {w} does not exist");
        var customer = await CustomerAsync(c, $"SELECT {CustomerColumns} FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c FOR UPDATE",
            $"SELECT {CustomerColumns} FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_last = @last ORDER BY c_first, c_id FOR UPDATE",
            cw, cd, input.c_id, input.c_last, ReadPaymentCustomer);

        string? data = null;
        var amountText = amount.ToString("0.00", CultureInfo.InvariantCulture);
        if (customer.Credit == "BC")
        {
            data = $"{customer.Customer.c_id} {cd} {cw} {d} {w} {amountText}|{customer.Data}";
            data = data[..Math.Min(500, data.Length)];
            await ExecuteAsync(c, "UPDATE customer SET c_balance = c_balance - @a, c_ytd_payment = c_ytd_payment + @a, c_payment_cnt = c_payment_cnt + 1, c_data = @data WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c",
                ("@a", amount), ("@data", data), ("@w", cw), ("@d", cd), ("@c", customer.Customer.c_id));
        }
        else
        {
            await ExecuteAsync(c, "UPDATE customer SET c_balance = c_balance - @a, c_ytd_payment = c_ytd_payment + @a, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c",
                ("@a", amount), ("@w", cw), ("@d", cd), ("@c", customer.Customer.c_id));
        }

        await ExecuteAsync(c, "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (@c, @cd, @cw, @d, @w, @now, @a, @data)",
            ("@c", customer.Customer.c_id), ("@cd", cd), ("@cw", cw), ("@d", d), ("@w", w), ("@now", now), ("@a", amount), ("@data", $"{warehouse.Name}    {district.Name}"));
        var paid = customer.Customer with
        {
            c_balance = customer.Customer.c_balance - amount,
            c_data = data is null ? null : data[..Math.Min(200, data.Length)],
        };
        return new PaymentResult(w, d, cw, cd, amount, Timestamp(now), warehouse.Address, district.Address, paid);
    });

    public Task<OrderStatusResult> OrderStatusAsync(OrderStatusInput input) => TransactionAsync(async c =>
    {
        var (w, d) = (input.w_id, input.d_id);
        var found = await CustomerAsync(c, "SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c",
            "SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = @w AND c_d_id = @d AND c_last = @last ORDER BY c_first, c_id",
            w, d, input.c_id, input.c_last,
            r => (new StatusCustomer(r.GetInt32(0), r.GetString(1), r.GetString(2), r.GetString(3), r.GetDecimal(4)), "", ""));
        var customer = found.Customer;
        var order = await RowAsync(c, "SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = @w AND o_d_id = @d AND o_c_id = @c ORDER BY o_id DESC LIMIT 1",
            r => (Id: r.GetInt32(0), Entry: DateTimeText(r, 1)!, Carrier: r.IsDBNull(2) ? (int?)null : r.GetInt32(2)), ("@w", w), ("@d", d), ("@c", customer.c_id))
            ?? throw new TpccNotFoundException($"customer {customer.c_id} of warehouse {w} district {d} has no order");
        var lines = await RowsAsync(c, "SELECT ol_supply_w_id, ol_i_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id = @o ORDER BY ol_number",
            r => new StatusLine(r.GetInt32(0), r.GetInt32(1), r.GetInt32(2), r.GetDecimal(3), DateTimeText(r, 4)), ("@w", w), ("@d", d), ("@o", order.Id));
        return new OrderStatusResult(w, d, customer, new StatusOrder(order.Id, order.Entry, order.Carrier, lines));
    }, readOnly: true);

    public Task<DeliveryResult> DeliveryAsync(DeliveryInput input) => TransactionAsync(async c =>
    {
        var w = input.w_id;
        var now = DateTime.UtcNow;
        if (await ScalarAsync<int?>(c, "SELECT 1 FROM warehouse WHERE w_id = @w", ("@w", w)) is null)
        {
            throw new TpccNotFoundException($"warehouse {w} does not exist");
        }

        var districts = new List<DeliveredDistrict>(Districts);
        for (var d = 1; d <= Districts; d++)
        {
            var next = await ScalarAsync<int?>(c, "SELECT no_o_id FROM new_order WHERE no_w_id = @w AND no_d_id = @d ORDER BY no_o_id LIMIT 1 FOR UPDATE", ("@w", w), ("@d", d));
            if (next is not { } orderId)
            {
                districts.Add(new DeliveredDistrict(d, null));
                continue;
            }

            await ExecuteAsync(c, "DELETE FROM new_order WHERE no_w_id = @w AND no_d_id = @d AND no_o_id = @o", ("@w", w), ("@d", d), ("@o", orderId));
            var customerId = (await ScalarAsync<int?>(c, "SELECT o_c_id FROM orders WHERE o_w_id = @w AND o_d_id = @d AND o_id = @o FOR UPDATE", ("@w", w), ("@d", d), ("@o", orderId)))!.Value;
            await ExecuteAsync(c, "UPDATE orders SET o_carrier_id = @carrier WHERE o_w_id = @w AND o_d_id = @d AND o_id = @o", ("@carrier", input.o_carrier_id), ("@w", w), ("@d", d), ("@o", orderId));
            await ExecuteAsync(c, "UPDATE order_line SET ol_delivery_d = @now WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id = @o", ("@now", now), ("@w", w), ("@d", d), ("@o", orderId));
            var total = (await ScalarAsync<decimal?>(c, "SELECT COALESCE(SUM(ol_amount), 0) FROM order_line WHERE ol_w_id = @w AND ol_d_id = @d AND ol_o_id = @o", ("@w", w), ("@d", d), ("@o", orderId)))!.Value;
            await ExecuteAsync(c, "UPDATE customer SET c_balance = c_balance + @total, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = @w AND c_d_id = @d AND c_id = @c",
                ("@total", total), ("@w", w), ("@d", d), ("@c", customerId));
            districts.Add(new DeliveredDistrict(d, orderId));
        }

        return new DeliveryResult(w, input.o_carrier_id, Timestamp(now), districts);
    });

    public Task<StockLevelResult> StockLevelAsync(StockLevelInput input) => TransactionAsync(async c =>
    {
        var (w, d) = (input.w_id, input.d_id);
        var next = await ScalarAsync<int?>(c, "SELECT d_next_o_id FROM district WHERE d_w_id = @w AND d_id = @d", ("@w", w), ("@d", d))
            ?? throw new TpccNotFoundException($"warehouse {w} does not exist");
        var low = await ScalarAsync<long?>(c,
            "SELECT COUNT(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = @w AND s.s_i_id = ol.ol_i_id " +
            "WHERE ol.ol_w_id = @w2 AND ol.ol_d_id = @d AND ol.ol_o_id >= @from AND ol.ol_o_id < @to AND s.s_quantity < @threshold",
            ("@w", w), ("@w2", w), ("@d", d), ("@from", next - 20), ("@to", next), ("@threshold", input.threshold));
        return new StockLevelResult(w, d, input.threshold, low ?? 0);
    }, readOnly: true);

    /// <summary>
    /// Runs <paramref name="work"/> as one transaction; retried on deadlock and lock-wait
    /// timeout. Each attempt has a 2 s deadline from the pool checkout on (the connect,
    /// command and pool timeouts bound each wait, but a transaction chains several): past it
    /// the request is a 503 at once, and the abandoned attempt ends by its own timeouts and
    /// disposes its connection, which rolls its transaction back.
    /// </summary>
    private async Task<T> TransactionAsync<T>(Func<Tx, Task<T>> work, bool readOnly = false)
    {
        for (var attempt = 1; ; attempt++)
        {
            var running = AttemptAsync(work, readOnly);
            var deadline = Task.Delay(TimeSpan.FromSeconds(AppConfig.DbTimeoutSeconds));
            if (await Task.WhenAny(running, deadline) == deadline)
            {
                // Its failure, later, is nobody's: the request was answered.
                _ = running.ContinueWith(task => _ = task.Exception, TaskContinuationOptions.OnlyOnFaulted);
                throw new TimeoutException($"the transaction passed its {AppConfig.DbTimeoutSeconds} s deadline");
            }

            try
            {
                return await running;
            }
            catch (MySqlException ex) when (ex.ErrorCode is MySqlErrorCode.LockDeadlock or MySqlErrorCode.LockWaitTimeout)
            {
                if (attempt >= Attempts)
                {
                    throw new TpccBusyException($"the transaction met a {(ex.ErrorCode == MySqlErrorCode.LockDeadlock ? "deadlock" : "lock wait timeout")} {Attempts} times");
                }
            }
        }
    }

    /// <summary>One attempt: a transaction left unfinished (an exception) is rolled back when it is disposed.</summary>
    private async Task<T> AttemptAsync<T>(Func<Tx, Task<T>> work, bool readOnly)
    {
        await using var connection = await dataSource.OpenConnectionAsync();
        await using var transaction = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead, readOnly);
        try
        {
            var result = await work(new Tx(connection, transaction));
            await transaction.CommitAsync();
            return result;
        }
        catch (Exception ex) when (ex is TpccNotFoundException or TpccItemNotFoundException or MySqlException { ErrorCode: MySqlErrorCode.LockDeadlock or MySqlErrorCode.LockWaitTimeout })
        {
            // TPC-C's own rollbacks (a new order with an unused item id among them), and a deadlock's.
            await transaction.RollbackAsync();
            throw;
        }
    }

    private static async Task<(T Customer, string Credit, string Data)> CustomerAsync<T>(
        Tx c, string byId, string byName, int w, int d, int? id, string? last, Func<MySqlDataReader, (T, string, string)> read)
    {
        if (id is { } customerId)
        {
            return await RowAsync(c, byId, read, ("@w", w), ("@d", d), ("@c", customerId))
                ?? throw new TpccNotFoundException($"customer {customerId} of warehouse {w} district {d} does not exist");
        }

        var rows = await RowsAsync(c, byName, read, ("@w", w), ("@d", d), ("@last", last!));
        if (rows.Count == 0)
        {
            throw new TpccNotFoundException($"no customer of warehouse {w} district {d} is named {last}");
        }

        // Clause 2.5.2.2: of the customers with that last name, ordered by c_first, the one at position ⌈n/2⌉.
        return rows[((rows.Count + 1) / 2) - 1];
    }

    private static (PaymentCustomer Customer, string Credit, string Data) ReadPaymentCustomer(MySqlDataReader r) =>
        (new PaymentCustomer(r.GetInt32(0), r.GetString(1), r.GetString(2), r.GetString(3), Address(r, 4), r.GetString(9), DateTimeText(r, 10)!,
            r.GetString(11), r.GetDecimal(12), r.GetDecimal(13), r.GetDecimal(14), null), r.GetString(11), r.GetString(15));

    private static TpccAddress Address(MySqlDataReader r, int first) =>
        new(r.GetString(first), r.GetString(first + 1), r.GetString(first + 2), r.GetString(first + 3), r.GetString(first + 4));

    private static string? DateTimeText(MySqlDataReader r, int ordinal) => r.IsDBNull(ordinal) ? null : Timestamp(r.GetDateTime(ordinal));

    /// <summary>The connection and its open transaction, which every command must name.</summary>
    private sealed record Tx(MySqlConnection Connection, MySqlTransaction Transaction);

    private static async Task<MySqlCommand> PreparedAsync(Tx tx, string sql, (string Name, object Value)[] parameters)
    {
        var command = new MySqlCommand(sql, tx.Connection, tx.Transaction);
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }

        await command.PrepareAsync();
        return command;
    }

    private static async Task<int> ExecuteAsync(Tx connection, string sql, params (string Name, object Value)[] parameters)
    {
        await using var command = await PreparedAsync(connection, sql, parameters);
        return await command.ExecuteNonQueryAsync();
    }

    private static async Task<T?> ScalarAsync<T>(Tx connection, string sql, params (string Name, object Value)[] parameters)
    {
        await using var command = await PreparedAsync(connection, sql, parameters);
        var value = await command.ExecuteScalarAsync();
        return value is null or DBNull ? default : (T)Convert.ChangeType(value, Nullable.GetUnderlyingType(typeof(T)) ?? typeof(T), CultureInfo.InvariantCulture);
    }

    private static async Task<T?> RowAsync<T>(Tx connection, string sql, Func<MySqlDataReader, T> read, params (string Name, object Value)[] parameters)
        where T : struct
    {
        await using var command = await PreparedAsync(connection, sql, parameters);
        await using var reader = await command.ExecuteReaderAsync();
        return await reader.ReadAsync() ? read(reader) : null;
    }

    private static async Task<List<T>> RowsAsync<T>(Tx connection, string sql, Func<MySqlDataReader, T> read, params (string Name, object Value)[] parameters)
    {
        await using var command = await PreparedAsync(connection, sql, parameters);
        await using var reader = await command.ExecuteReaderAsync();
        var rows = new List<T>();
        while (await reader.ReadAsync())
        {
            rows.Add(read(reader));
        }

        return rows;
    }
}
